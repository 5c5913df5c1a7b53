import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-axe';
import { fakeNetwork, renderAt } from '../test-support';
import { fakeAuthenticator, requestOptions, webauthnNode } from '../test-webauthn';
import LoginScreen from './LoginScreen';

const info = (id: number, text: string) => ({ id, text });
const csrf = webauthnNode('csrf_token', 'passkey', 'hidden', { value: 'csrf' });

/** The first step with passkeys on, the passkey nodes before the password's, as the provider sends them. */
const firstStep = {
  id: 'f1',
  type: 'browser',
  requested_aal: 'aal1',
  state: 'choose_method',
  ui: {
    action: '/self-service/login?flow=f1',
    method: 'POST',
    nodes: [
      { ...csrf, group: 'default' },
      {
        ...webauthnNode('identifier', 'passkey', 'text', {
          value: '',
          required: true,
          autocomplete: 'username webauthn',
        }),
        group: 'default',
        meta: { label: { ...info(1070004, 'ID'), type: 'info' } },
      },
      webauthnNode('passkey_challenge', 'passkey', 'hidden', { value: requestOptions }),
      webauthnNode('passkey_login', 'passkey', 'hidden', {
        onload: 'window.oryPasskeyLoginAutocompleteInit()',
        onloadTrigger: 'oryPasskeyLoginAutocompleteInit',
      }),
      webauthnNode(
        'passkey_login_trigger',
        'passkey',
        'button',
        { onclick: 'window.oryPasskeyLogin()', onclickTrigger: 'oryPasskeyLogin', value: '' },
        info(1010021, 'Sign in with passkey'),
      ),
      {
        ...webauthnNode('password', 'passkey', 'password', { required: true }, info(1070001, 'Password')),
        group: 'password',
      },
      {
        ...webauthnNode('method', 'passkey', 'submit', { value: 'password' }, info(1010022, 'Sign in with password')),
        group: 'password',
      },
    ],
  },
};

/** The second step with an app and a security key (snapshot webauthn_payload_is_set_when_identity_has_webauthn). */
const secondStep = {
  ...firstStep,
  id: 'f2',
  requested_aal: 'aal2',
  ui: {
    action: '/self-service/login?flow=f2',
    method: 'POST',
    nodes: [
      { ...csrf, group: 'default' },
      { ...webauthnNode('identifier', 'webauthn', 'hidden', { value: 'ali@dego.nl' }), group: 'default' },
      { ...webauthnNode('totp_code', 'webauthn', 'text', {}, info(1010006, 'Authentication code')), group: 'totp' },
      {
        ...webauthnNode('method', 'webauthn', 'submit', { value: 'totp' }, info(1010009, 'Use Authenticator')),
        group: 'totp',
      },
      webauthnNode('webauthn_login', 'webauthn', 'hidden', { value: '' }),
      webauthnNode(
        'webauthn_login_trigger',
        'webauthn',
        'button',
        { onclickTrigger: 'oryWebAuthnLogin', value: requestOptions },
        info(1010008, 'Sign in with a hardware key'),
      ),
    ],
  },
};

/** A re-authentication of a person with a password and a passkey: the address fixed, both ways offered. */
const refreshStep = {
  ...firstStep,
  id: 'f3',
  refresh: true,
  ui: {
    ...firstStep.ui,
    action: '/self-service/login?flow=f3',
    messages: [{ ...info(1010003, 'Please confirm this action by verifying that it is you.'), type: 'info' }],
    nodes: [
      { ...csrf, group: 'default' },
      { ...webauthnNode('identifier', 'passkey', 'hidden', { value: 'ali@dego.nl' }), group: 'default' },
      ...firstStep.ui.nodes.slice(2),
    ],
  },
};

const routes = (
  <>
    <Route path="/login" element={<LoginScreen />} />
    <Route path="/permissies" element={<p>Datavoorzieningen-pagina</p>} />
  </>
);

function network(flow: unknown) {
  return fakeNetwork((url, init) => {
    if (url.pathname === '/self-service/login/browser') return { status: 200, body: flow };
    if (url.pathname === '/self-service/login' && init?.method === 'POST')
      return { status: 200, body: { session: { id: 's1', active: true } } };
    return { status: 401, body: {} };
  });
}

const postedBody = (calls: ReturnType<typeof fakeNetwork>) => {
  const sent = calls.find((call) => call.url.pathname === '/self-service/login' && call.init?.method === 'POST');
  return sent && (JSON.parse(String(sent.init?.body)) as Record<string, unknown>);
};

afterEach(() => vi.unstubAllGlobals());

describe('LoginScreen with passkeys', () => {
  it("signs in with 'Inloggen met een passkey': the browser's answer goes as passkey_login, nothing else", async () => {
    const requests = fakeAuthenticator();
    const calls = network(firstStep);
    const { container } = renderAt('/login', routes);
    const button = await screen.findByRole('button', { name: 'Inloggen met een passkey' });
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(button);
    expect(await screen.findByText('Je bent ingelogd. Even geduld…')).toBeInTheDocument();
    const body = postedBody(calls)!;
    expect(body).toMatchObject({ method: 'passkey', csrf_token: 'csrf' });
    expect(JSON.parse(String(body.passkey_login))).toMatchObject({
      id: 'a2V5LTE',
      type: 'public-key',
      response: { signature: expect.any(String), userHandle: expect.any(String) },
    });
    expect(body).not.toHaveProperty('passkey_challenge');
    expect(body).not.toHaveProperty('password');
    // The challenge of the flow went to the browser, user verification as the provider asked.
    const asked = requests.find((r) => r.kind === 'get' && !('mediation' in r.options && r.options.mediation));
    expect((asked!.options as CredentialRequestOptions).publicKey?.userVerification).toBe('required');
  });

  it("offers passkeys in the e-mail field's suggestions and signs in with the one chosen", async () => {
    const requests = fakeAuthenticator({ autofill: 'answer' });
    const calls = network(firstStep);
    renderAt('/login', routes);
    const field = await screen.findByLabelText('E-mailadres');
    expect(field).toHaveAttribute('autocomplete', 'username webauthn');
    // The fields together, then the password's button, then the passkey's (the provider sends it in between).
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Inloggen',
      'Inloggen met een passkey',
    ]);
    expect(await screen.findByText('Je bent ingelogd. Even geduld…')).toBeInTheDocument();
    expect(requests[0]?.options).toMatchObject({ mediation: 'conditional' });
    expect(postedBody(calls)).toMatchObject({ method: 'passkey', passkey_login: expect.stringContaining('a2V5LTE') });
  });

  it('says in Dutch when the passkey request was stopped, the focus on that message, and sends nothing', async () => {
    fakeAuthenticator({ refuse: true });
    const calls = network(firstStep);
    renderAt('/login', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Inloggen met een passkey' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Inloggen met je beveiligingssleutel of passkey is gestopt of duurde te lang. Probeer het opnieuw.',
    );
    await waitFor(() => expect(alert).toHaveFocus());
    expect(postedBody(calls)).toBeUndefined();
  });

  // The attack of issue 25: a browser holding a passkey the portal removed answers every autofill request at once; the
  // provider refuses it and hands the flow back with a new challenge, and a screen that asked again sent 161 refused
  // sign-ins in 3 seconds, enough to lock out everyone behind the address (docs/security.md).
  it('asks the autofill once: a refused passkey is not sent again, the passkey button still works', async () => {
    const requests = fakeAuthenticator({ autofill: 'answer' });
    let refusals = 0;
    const refused = () => {
      refusals += 1;
      // As the provider answers: the same flow with a new challenge and the message of an unknown passkey.
      const challenge = requestOptions.replace('Y2hhbGxlbmdlLTE', btoa(`challenge-${refusals + 1}`).replace(/=+$/, ''));
      const nodes = firstStep.ui.nodes.map((node) =>
        node.attributes.name === 'passkey_challenge'
          ? { ...node, attributes: { ...node.attributes, value: challenge } }
          : node,
      );
      const message = { ...info(4000015, 'This account does not exist or has no security key set up.'), type: 'error' };
      return { status: 400, body: { ...firstStep, ui: { ...firstStep.ui, nodes, messages: [message] } } };
    };
    const calls = fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: firstStep };
      if (url.pathname === '/self-service/login' && init?.method === 'POST') return refused();
      return { status: 401, body: {} };
    });
    const posts = () => calls.filter((c) => c.url.pathname === '/self-service/login' && c.init?.method === 'POST');
    renderAt('/login', routes);
    expect(await screen.findByText('Dit account bestaat niet of heeft geen beveiligingssleutel of passkey.'));
    // Time for a storm: every answer of the screen comes back within a few ticks.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posts().length, 'sign-ins sent by the autofill').toBe(1);
    expect(requests.filter((r) => 'mediation' in r.options && r.options.mediation === 'conditional')).toHaveLength(1);
    // The person may still choose to try a passkey: the button asks the browser and sends its answer.
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen met een passkey' }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posts().length, 'sign-ins after pressing the button once').toBe(2);
  });

  it('sends a password sign-in without the passkey challenge, and says nothing of a refused suggestion', async () => {
    const requests = fakeAuthenticator({ autofill: 'refuse' });
    const calls = network(firstStep);
    renderAt('/login', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'ali@dego.nl');
    await userEvent.type(screen.getByLabelText('Wachtwoord'), 'Kade-Brug-Sluis-Molen-93');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    await screen.findByText('Je bent ingelogd. Even geduld…');
    const body = postedBody(calls)!;
    expect(body).toMatchObject({ method: 'password', identifier: 'ali@dego.nl' });
    expect(Object.keys(body).filter((key) => key.startsWith('passkey'))).toEqual([]);
    expect(requests.map((r) => r.kind)).toEqual(['get']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('confirms the session with the passkey alone when the second-factor policy sent the person here', async () => {
    const requests = fakeAuthenticator({ autofill: 'answer' });
    const calls = network(refreshStep);
    const { container } = renderAt('/login?refresh=true&passkey=1', routes);
    const button = await screen.findByRole('button', { name: 'Inloggen met een passkey' });
    expect(
      screen.getByText(
        'Je organisatie vraagt om tweestapsverificatie. Bevestig met je passkey dat jij het bent om verder te gaan.',
      ),
    ).toBeInTheDocument();
    // The address is in no field, so the screen says whose session is confirmed.
    expect(screen.getByText('ali@dego.nl').closest('p')).toHaveTextContent('Je bent ingelogd als ali@dego.nl.');
    // A password would not meet the policy, and with the address hidden there is no field to suggest passkeys in.
    expect(screen.queryByLabelText('Wachtwoord')).toBeNull();
    expect(screen.queryByText('Bevestig met je wachtwoord dat jij het bent.')).toBeNull();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Inloggen met een passkey']);
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(button);
    await screen.findByText('Je bent ingelogd. Even geduld…');
    expect(requests.map((r) => 'mediation' in r.options && r.options.mediation)).toEqual([false]);
    expect(postedBody(calls)).toMatchObject({ method: 'passkey', identifier: 'ali@dego.nl' });
  });

  it('offers a security key beside the app code on the second step, and signs in with it', async () => {
    fakeAuthenticator();
    const calls = network(secondStep);
    const { container } = renderAt('/login?aal=aal2', routes);
    const key = await screen.findByRole('button', { name: 'Gebruik je beveiligingssleutel' });
    expect(screen.getByLabelText('Verificatiecode')).toBeInTheDocument();
    expect(screen.getByText(/Of gebruik je beveiligingssleutel/)).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
    // Keyboard only: the key's button is reached with Tab and pressed with Enter.
    key.focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByText('Je bent ingelogd. Even geduld…');
    const body = postedBody(calls)!;
    expect(body).toMatchObject({ method: 'webauthn', identifier: 'ali@dego.nl' });
    expect(JSON.parse(String(body.webauthn_login))).toMatchObject({ id: 'a2V5LTE' });
    expect(body).not.toHaveProperty('totp_code');
  });

  it('takes a passkey as the second factor when the provider asks for the code step after it', async () => {
    fakeAuthenticator();
    const me = (secondFactorMet: boolean) => ({
      active: true,
      identity: { id: 'me', traits: { email: 'ali@dego.nl', name: { first: 'Ali', last: 'A' } }, credentials: [] },
      isAdmin: false,
      authenticator_assurance_level: 'aal1',
      authentication_methods: secondFactorMet ? ['passkey'] : ['password'],
      aal2Required: true,
      secondFactorMet,
    });
    let signedIn = false;
    const calls = fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: firstStep };
      if (url.pathname === '/self-service/login' && init?.method === 'POST') {
        signedIn = true;
        // As Kratos: the aal1 session is made, then the browser is sent to the second step.
        return {
          status: 422,
          body: {
            error: { id: 'browser_location_change_required', code: 422 },
            redirect_browser_to: 'http://localhost:3000/login?aal=aal2',
          },
        };
      }
      if (url.pathname === '/api/users/whoami')
        return signedIn ? { status: 200, body: me(true) } : { status: 401, body: {} };
      return { status: 401, body: {} };
    });
    renderAt('/login', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Inloggen met een passkey' }));
    expect(await screen.findByText('Je bent ingelogd. Even geduld…')).toBeInTheDocument();
    expect(await screen.findByText('Datavoorzieningen-pagina', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(calls.some((call) => call.url.searchParams.get('aal') === 'aal2')).toBe(false);
  });
});
