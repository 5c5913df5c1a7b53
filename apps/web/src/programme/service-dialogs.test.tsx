import { screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-axe';
import { descriptionOf, errorSummary, fakeNetwork, renderAt, summaryItems } from '../test-support';
import { ClientSecretDialog } from './ClientSecretDialog';
import { ConnectServiceDialog } from './ConnectServiceDialog';
import { ConnectionGuide } from './ConnectionGuide';
import { RemoveServiceDialog } from './RemoveServiceDialog';
import { RotateSecretDialog } from './RotateSecretDialog';
import type { ProgrammeService } from './services-api';

/** A confidential client behind mod_auth_openidc that nginx also asks about. */
const WIJKMONITOR: ProgrammeService = {
  id: 'wijkmonitor',
  name: 'Wijkmonitor',
  description: 'Cijfers per wijk.',
  url: 'https://wijkmonitor.example.nl/',
  access: { organisations: ['voorbeeldstad'], dataRoles: [] },
  forwardAuth: true,
  oidc: {
    clientId: 'wijkmonitor-client',
    type: 'confidential',
    redirectUris: ['https://wijkmonitor.example.nl/redirect_uri', 'https://wijkmonitor.example.nl/tweede'],
    postLogoutRedirectUris: ['https://wijkmonitor.example.nl/uitgelogd'],
    backchannelLogoutUri: 'https://wijkmonitor.example.nl/redirect_uri?logout=backchannel',
  },
};
/** A single-page app: a public client, without a secret. */
const KAARTEN: ProgrammeService = {
  ...WIJKMONITOR,
  id: 'kaarten',
  name: 'Kaarten',
  forwardAuth: false,
  oidc: {
    clientId: 'kaarten',
    type: 'public',
    redirectUris: ['https://kaarten.example.nl/callback'],
    postLogoutRedirectUris: ['https://kaarten.example.nl/'],
  },
};
const LOSSE: ProgrammeService = {
  ...WIJKMONITOR,
  id: 'losse',
  name: 'Losse dienst',
  forwardAuth: false,
  oidc: undefined,
};

const SECRET = 'Q2xpZW50Z2VoZWltLXZhbi1kZS13aWprbW9uaXRvci1kYXQtNjQtdGVrZW5zLWxhbmc';
const HOURS_RULE = 'Vul een geheel aantal uren in van 0 tot en met 720.';

const refusal = (status: number, id: string, message: string) => ({
  status,
  body: { error: { code: status, id, reason: 'x', message } },
});

/** The Users API as far as these dialogs use it: `DELETE` of a service and `POST …/client-secret`. */
function servicesServer(answer: (method: string, path: string) => { status: number; body?: unknown } | undefined) {
  return fakeNetwork((url, init) => {
    if (url.pathname === '/api/config') return { status: 200, body: { title: 'x', description: 'x' } };
    return answer(init?.method ?? 'GET', url.pathname);
  });
}

const show = (dialog: ReactNode) => renderAt('/', <Route path="/" element={dialog} />);

const sent = (calls: ReturnType<typeof fakeNetwork>, method: string) =>
  calls.filter((call) => call.init?.method === method).map((call) => call.url.pathname);

afterEach(() => vi.unstubAllGlobals());

describe('RemoveServiceDialog', () => {
  it('removes the service after the confirmation and reports it', async () => {
    const calls = servicesServer((method) => (method === 'DELETE' ? { status: 204 } : undefined));
    const onDone = vi.fn();
    const { baseElement } = show(<RemoveServiceDialog service={WIJKMONITOR} onClose={vi.fn()} onDone={onDone} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Datavoorziening verwijderen' });
    expect(dialog).toHaveTextContent('kan niemand de datavoorziening nog via het portaal gebruiken');
    expect(dialog).toHaveTextContent('De OpenID Connect-client en de clientgeheimen werken meteen niet meer.');
    expect(dialog).toHaveTextContent('Dit kan niet ongedaan worden gemaakt.');
    expect(await axeViolations(baseElement)).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Verwijderen' }));

    await waitFor(() => expect(onDone).toHaveBeenCalledWith('Wijkmonitor is verwijderd.'));
    expect(sent(calls, 'DELETE')).toEqual(['/api/programme/services/wijkmonitor']);
  });

  it('says nothing of a client for a service without one', () => {
    servicesServer(() => undefined);
    show(<RemoveServiceDialog service={LOSSE} onClose={vi.fn()} onDone={vi.fn()} />);
    expect(screen.getByRole('alertdialog')).not.toHaveTextContent('OpenID Connect');
  });

  it('keeps a failure in the dialog', async () => {
    servicesServer((method) => (method === 'DELETE' ? { status: 500, body: {} } : undefined));
    const onDone = vi.fn();
    const { baseElement } = show(<RemoveServiceDialog service={WIJKMONITOR} onClose={vi.fn()} onDone={onDone} />);

    await userEvent.click(screen.getByRole('button', { name: 'Verwijderen' }));

    const alert = await within(screen.getByRole('alertdialog')).findByRole('alert');
    expect(alert).toHaveTextContent('Verwijderen van de datavoorziening is niet gelukt. Probeer het later nog eens.');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(onDone).not.toHaveBeenCalled();
    expect(await axeViolations(baseElement)).toEqual([]);
  });
});

describe('RotateSecretDialog', () => {
  const rotated = { clientSecret: SECRET, previousValidUntil: '2026-11-29T09:05:00.000Z' };
  const rotation = (method: string, path: string) =>
    method === 'POST' && path === '/api/programme/services/wijkmonitor/client-secret'
      ? { status: 200, body: rotated }
      : undefined;

  it('asks for the hours, 24 unless changed, and hands the new secret on', async () => {
    const calls = servicesServer(rotation);
    const onRotated = vi.fn();
    const { baseElement } = show(<RotateSecretDialog service={WIJKMONITOR} onClose={vi.fn()} onRotated={onRotated} />);
    const dialog = screen.getByRole('dialog', { name: 'Nieuw clientgeheim' });
    expect(dialog).toHaveTextContent('Het portaal maakt een nieuw clientgeheim voor Wijkmonitor.');
    const hours = within(dialog).getByRole('textbox', { name: 'Het huidige geheim blijft nog geldig (uren)' });
    expect(hours).toHaveValue('24');
    expect(hours).toHaveAttribute('inputmode', 'numeric');
    expect(await axeViolations(baseElement)).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Nieuw geheim maken' }));

    await waitFor(() => expect(onRotated).toHaveBeenCalledWith(rotated));
    const post = calls.find((call) => call.init?.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({ overlapHours: 24 });
  });

  it('sends 0 for a secret that stops at once', async () => {
    const calls = servicesServer(rotation);
    const onRotated = vi.fn();
    show(<RotateSecretDialog service={WIJKMONITOR} onClose={vi.fn()} onRotated={onRotated} />);
    const hours = screen.getByRole('textbox', { name: 'Het huidige geheim blijft nog geldig (uren)' });

    await userEvent.clear(hours);
    await userEvent.type(hours, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Nieuw geheim maken' }));

    await waitFor(() => expect(onRotated).toHaveBeenCalled());
    const post = calls.find((call) => call.init?.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({ overlapHours: 0 });
  });

  it.each(['721', '1.5', '-1', '', 'een dag'])('refuses %j in the summary and at the field', async (value) => {
    const calls = servicesServer(rotation);
    const onRotated = vi.fn();
    const { baseElement } = show(<RotateSecretDialog service={WIJKMONITOR} onClose={vi.fn()} onRotated={onRotated} />);
    const hours = screen.getByRole('textbox', { name: 'Het huidige geheim blijft nog geldig (uren)' });

    await userEvent.clear(hours);
    if (value) await userEvent.type(hours, value);
    await userEvent.click(screen.getByRole('button', { name: 'Nieuw geheim maken' }));

    await waitFor(() => expect(summaryItems()).toEqual([HOURS_RULE]));
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    expect(hours).toHaveAttribute('aria-invalid', 'true');
    expect(descriptionOf(hours)).toBe(HOURS_RULE);
    expect(sent(calls, 'POST')).toEqual([]);
    expect(onRotated).not.toHaveBeenCalled();
    expect(await axeViolations(baseElement)).toEqual([]);
  });

  it('takes 720 hours, the most', async () => {
    const calls = servicesServer(rotation);
    const onRotated = vi.fn();
    show(<RotateSecretDialog service={WIJKMONITOR} onClose={vi.fn()} onRotated={onRotated} />);
    const hours = screen.getByRole('textbox', { name: 'Het huidige geheim blijft nog geldig (uren)' });

    await userEvent.clear(hours);
    await userEvent.type(hours, '720');
    await userEvent.click(screen.getByRole('button', { name: 'Nieuw geheim maken' }));

    await waitFor(() => expect(onRotated).toHaveBeenCalled());
    expect(JSON.parse(String(calls.find((call) => call.init?.method === 'POST')?.init?.body))).toEqual({
      overlapHours: 720,
    });
  });

  it("shows the server's refusal in the dialog, which stays open", async () => {
    const reason = 'Deze datavoorziening heeft geen vertrouwelijke OpenID Connect-client, dus ook geen clientgeheim.';
    servicesServer((method) => (method === 'POST' ? refusal(409, 'no_client_secret', reason) : undefined));
    const onRotated = vi.fn();
    const { baseElement } = show(<RotateSecretDialog service={KAARTEN} onClose={vi.fn()} onRotated={onRotated} />);

    await userEvent.click(screen.getByRole('button', { name: 'Nieuw geheim maken' }));

    const dialog = screen.getByRole('dialog', { name: 'Nieuw clientgeheim' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(reason);
    // The refusal takes the focus in an effect after it is drawn: on a busy machine a moment after it appears.
    await waitFor(() => expect(alert).toHaveFocus());
    expect(onRotated).not.toHaveBeenCalled();
    expect(await axeViolations(baseElement)).toEqual([]);
  });
});

describe('ClientSecretDialog', () => {
  const secretField = () => screen.getByRole('textbox', { name: 'Clientgeheim' }) as HTMLInputElement;

  it('shows the secret once, with the warning read out at the copy button, and copies it', async () => {
    const user = userEvent.setup();
    // After setup(), which puts a clipboard of its own in place.
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { baseElement } = show(<ClientSecretDialog service={WIJKMONITOR} secret={SECRET} onClose={vi.fn()} />);

    const dialog = screen.getByRole('dialog', { name: 'Clientgeheim van Wijkmonitor' });
    expect(dialog).toHaveTextContent('Je ziet dit clientgeheim maar één keer.');
    expect(dialog).toHaveTextContent('wijkmonitor-client');
    expect(secretField()).toHaveValue(SECRET);
    expect(secretField()).toHaveAttribute('readonly');
    const copy = within(dialog).getByRole('button', { name: 'Kopiëren' });
    await waitFor(() => expect(copy).toHaveFocus());
    expect(descriptionOf(copy)).toContain('Het portaal bewaart alleen een hash van het geheim');
    expect(dialog).not.toHaveTextContent('Het vorige geheim');
    expect(await axeViolations(baseElement)).toEqual([]);

    await user.click(copy);

    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Het clientgeheim is gekopieerd.');
  });

  it('selects the secret to copy by hand when the clipboard refuses', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { baseElement } = show(<ClientSecretDialog service={WIJKMONITOR} secret={SECRET} onClose={vi.fn()} />);

    await user.click(screen.getByRole('button', { name: 'Kopiëren' }));

    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Kopiëren is niet gelukt. Selecteer het geheim en kopieer het zelf.',
      ),
    );
    await waitFor(() => expect(secretField()).toHaveFocus());
    expect([secretField().selectionStart, secretField().selectionEnd]).toEqual([0, SECRET.length]);
    expect(await axeViolations(baseElement)).toEqual([]);
  });

  it('says until when the previous secret works', () => {
    servicesServer(() => undefined);
    const until = '2099-11-28T08:05:00Z';
    show(<ClientSecretDialog service={WIJKMONITOR} secret={SECRET} previousValidUntil={until} onClose={vi.fn()} />);
    expect(screen.getByRole('dialog')).toHaveTextContent(
      'Het vorige geheim blijft geldig tot 28 november 2099 om 09:05.',
    );
  });

  it('says that the previous secret stopped, after an overlap of 0', () => {
    servicesServer(() => undefined);
    const now = new Date().toISOString();
    show(<ClientSecretDialog service={WIJKMONITOR} secret={SECRET} previousValidUntil={now} onClose={vi.fn()} />);
    expect(screen.getByRole('dialog')).toHaveTextContent('Het vorige geheim werkt niet meer.');
    expect(screen.getByRole('dialog')).not.toHaveTextContent('blijft geldig');
  });

  it('has a guide with a placeholder, never the secret itself', async () => {
    servicesServer(() => undefined);
    show(<ClientSecretDialog service={WIJKMONITOR} secret={SECRET} onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).not.toContain(SECRET);
    expect(dialog.innerHTML.split(SECRET)).toHaveLength(2);
    expect(within(dialog).getByRole('region', { name: 'Voorbeeld: Apache-configuratie' })).toHaveTextContent(
      'OIDCClientSecret "<het clientgeheim>"',
    );
  });

  it('closes with Sluiten or Escape, but not with a click beside it', async () => {
    servicesServer(() => undefined);
    const onClose = vi.fn();
    show(<ClientSecretDialog service={WIJKMONITOR} secret={SECRET} onClose={onClose} />);

    await userEvent.click(document.querySelector('.dvp-modal-overlay')!);
    expect(onClose).not.toHaveBeenCalled();
    // The dialog takes the focus back from the page, as react-aria does after a frame.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Kopiëren' })).toHaveFocus());

    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Sluiten' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('ConnectionGuide', () => {
  const ORIGIN = 'https://portaal.example.nl';
  const titles = () => Array.from(document.querySelectorAll('summary'), (summary) => summary.textContent);
  const example = (name: string) => screen.getByRole('region', { name: `Voorbeeld: ${name}` }).textContent;

  it('shows all three ways for a confidential client with forward-auth, with its own values', () => {
    renderAt('/', <Route path="/" element={<ConnectionGuide service={WIJKMONITOR} portalOrigin={ORIGIN} />} />);
    expect(titles()).toEqual([
      'Met een OpenID Connect-bibliotheek',
      'Met Apache en mod_auth_openidc',
      'Met nginx (forward-auth)',
    ]);
    const library = example('omgevingsvariabelen');
    expect(library).toContain('OIDC_ISSUER=https://portaal.example.nl/oidc');
    expect(library).toContain('OIDC_CLIENT_ID=wijkmonitor-client');
    expect(library).toContain('OIDC_CLIENT_SECRET=<het clientgeheim>');
    expect(library).toContain('OIDC_REDIRECT_URI=https://wijkmonitor.example.nl/redirect_uri\n');
    expect(library).toContain('OIDC_SCOPES="openid email profile organisations"');
    const values = document.querySelector('dl')!.textContent;
    expect(values).toContain('https://portaal.example.nl/oidc/.well-known/openid-configuration');
    expect(values).toContain('https://wijkmonitor.example.nl/redirect_uri?logout=backchannel');
    expect(values).toContain('client_secret_basic');

    const apache = example('Apache-configuratie');
    expect(apache).toContain(
      'OIDCProviderMetadataURL https://portaal.example.nl/oidc/.well-known/openid-configuration',
    );
    expect(apache).toContain('OIDCClientID wijkmonitor-client');
    expect(apache).toContain('OIDCRedirectURI https://wijkmonitor.example.nl/redirect_uri\n');
    expect(apache).toContain('OIDCCryptoPassphrase "<een eigen willekeurige waarde>"');
    expect(apache).toContain('OIDCPKCEMethod S256');

    const nginx = example('nginx-configuratie');
    expect(nginx).toContain('auth_request /_portaal/forward-auth;');
    expect(nginx).toContain('proxy_pass https://portaal.example.nl/api/forward-auth?service=wijkmonitor;');
    expect(nginx).toContain('proxy_set_header X-Portaal-Data-Roles $portaal_data_roles;');
    expect(document.body).toHaveTextContent('ALLOWED_RETURN_URLS');
    expect(document.body).toHaveTextContent('deploy/nginx/forward-auth.conf');
  });

  it('leaves out mod_auth_openidc and the secret for a public client', () => {
    renderAt('/', <Route path="/" element={<ConnectionGuide service={KAARTEN} portalOrigin={ORIGIN} />} />);
    expect(titles()).toEqual(['Met een OpenID Connect-bibliotheek']);
    const library = example('omgevingsvariabelen');
    expect(library).not.toContain('OIDC_CLIENT_SECRET');
    expect(library).toContain('OIDC_PKCE_METHOD=S256');
    expect(library).toContain('OIDC_TOKEN_ENDPOINT_AUTH_METHOD=none');
  });

  it('says so when the service has no way to connect', () => {
    renderAt('/', <Route path="/" element={<ConnectionGuide service={LOSSE} portalOrigin={ORIGIN} />} />);
    expect(titles()).toEqual([]);
    expect(
      screen.getByText(
        'Deze datavoorziening heeft geen koppeling: zet forward-auth aan of voeg een OpenID Connect-client toe.',
      ),
    ).toBeInTheDocument();
  });
});

describe('ConnectServiceDialog', () => {
  it("shows the guide with this portal's address and closes", async () => {
    servicesServer(() => undefined);
    const onClose = vi.fn();
    const { baseElement } = show(<ConnectServiceDialog service={WIJKMONITOR} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Koppelen: Wijkmonitor' });
    expect(within(dialog).getByRole('region', { name: 'Voorbeeld: omgevingsvariabelen' })).toHaveTextContent(
      `OIDC_ISSUER=${window.location.origin}/oidc`,
    );
    // Each way opens, so that axe judges what it shows too.
    for (const title of [
      'Met een OpenID Connect-bibliotheek',
      'Met Apache en mod_auth_openidc',
      'Met nginx (forward-auth)',
    ]) {
      await userEvent.click(within(dialog).getByText(title));
      expect(within(dialog).getByText(title).closest('details')).toHaveAttribute('open');
    }
    expect(await axeViolations(baseElement)).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Sluiten' }));
    expect(onClose).toHaveBeenCalled();
  });
});
