import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SettingsScreen from '../screens/SettingsScreen';
import { axeViolations } from '../test-axe';
import { fakeNetwork, renderAt } from '../test-support';
import { defaultPasskeyName } from './AddPasskey';
import { creationOptions, fakeAuthenticator, webauthnNode } from '../test-webauthn';

const me = (credentials: string[]) => ({
  active: true,
  identity: { id: 'me', traits: { email: 'ali@dego.nl', name: { first: 'Ali', last: 'Analist' } }, credentials },
  permissions: [],
  activeOrg: { id: 'dego', label: 'DEGO', subdivisions: [] },
  isAdmin: false,
  authenticator_assurance_level: 'aal1',
  aal2Required: false,
});

const label = (id: number, text: string, context?: Record<string, unknown>) => ({ id, text, context });

const securityKey = webauthnNode(
  'webauthn_remove',
  'webauthn',
  'submit',
  { value: '6b65792d31' },
  label(1050018, 'Remove security key "YubiKey werk"', {
    display_name: 'YubiKey werk',
    added_at: '2026-11-01T10:00:00Z',
    added_at_unix: 1793527200,
  }),
);
const passkey = webauthnNode(
  'passkey_remove',
  'passkey',
  'submit',
  { value: '6b65792d32' },
  // Kratos asks no name for a passkey and labels it 'unnamed'.
  label(1050020, 'Remove passkey "unnamed"', { display_name: 'unnamed', added_at: '2026-11-20T10:00:00Z' }),
);

/** A settings flow with both methods on, as Kratos' snapshots show them; `keys`: the remove buttons. */
const settingsFlow = (keys: unknown[], messages?: unknown[]) => ({
  id: 's1',
  type: 'browser',
  state: 'show_form',
  ui: {
    action: '/self-service/settings?flow=s1',
    method: 'POST',
    messages,
    nodes: [
      { ...webauthnNode('csrf_token', 'webauthn', 'hidden', { value: 'c' }), group: 'default' },
      webauthnNode('webauthn_register_displayname', 'webauthn', 'text', { value: '' }, label(1050013, 'Name')),
      webauthnNode('webauthn_register', 'webauthn', 'hidden', { value: '' }),
      webauthnNode(
        'webauthn_register_trigger',
        'webauthn',
        'button',
        { onclickTrigger: 'oryWebAuthnRegistration', value: creationOptions },
        label(1050012, 'Add security key'),
      ),
      ...keys,
      webauthnNode(
        'passkey_register_trigger',
        'passkey',
        'button',
        { onclickTrigger: 'oryPasskeySettingsRegistration', value: '' },
        label(1050019, 'Add passkey'),
      ),
      webauthnNode('passkey_settings_register', 'passkey', 'hidden'),
      webauthnNode('passkey_create_data', 'passkey', 'hidden', { value: creationOptions }),
      {
        ...webauthnNode('lookup_secret_regenerate', 'webauthn', 'submit', { value: 'true' }),
        group: 'lookup_secret',
        meta: { label: { ...label(1050008, 'Generate new backup recovery codes'), type: 'info' } },
      },
    ],
  },
});

function network(keys: unknown[], answer?: (body: Record<string, unknown>) => { status: number; body?: unknown }) {
  return fakeNetwork((url, init) => {
    if (url.pathname === '/sessions') return { status: 200, body: [] };
    if (url.pathname === '/api/users/whoami') return { status: 200, body: me(['password']) };
    if (url.pathname === '/api/config') return { status: 200, body: {} };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/api/users/security-keys')
      return {
        status: 200,
        body: {
          keys: [
            { kind: 'security_key', id: '6b65792d31', name: 'YubiKey werk', synced: false },
            { kind: 'passkey', id: '6b65792d32', name: '', synced: true },
          ],
        },
      };
    if (url.pathname === '/self-service/settings/browser') return { status: 200, body: settingsFlow(keys) };
    if (url.pathname === '/self-service/settings' && init?.method === 'POST')
      return answer?.(JSON.parse(String(init.body))) ?? { status: 200, body: settingsFlow(keys) };
    return undefined;
  });
}

const posted = (calls: ReturnType<typeof fakeNetwork>) =>
  calls
    .filter((call) => call.url.pathname === '/self-service/settings' && call.init?.method === 'POST')
    .map((call) => JSON.parse(String(call.init?.body)) as Record<string, unknown>);

const routes = <Route path="/settings" element={<SettingsScreen />} />;
const section = async () =>
  (await screen.findByRole('heading', { name: 'Beveiligingssleutels en passkeys' })).closest('section')!;

afterEach(() => vi.unstubAllGlobals());

describe('Beveiligingssleutels en passkeys', () => {
  it('lists the keys with their name, kind and date added, each with a remove button naming it', async () => {
    fakeAuthenticator();
    network([securityKey, passkey]);
    const { container } = renderAt('/settings', routes);
    const keys = within(await section()).getByRole('list', { name: 'Je beveiligingssleutels en passkeys' });
    await within(keys).findByText(/gesynchroniseerd tussen je apparaten/);
    const items = within(keys).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'YubiKey werkBeveiligingssleutel, toegevoegd op 1 november 2026, niet gesynchroniseerd' +
        'Beveiligingssleutel "YubiKey werk" verwijderen',
      'Passkey van 20 november 2026Passkey, toegevoegd op 20 november 2026, gesynchroniseerd tussen je apparaten' +
        'Passkey verwijderen',
    ]);
    expect(within(keys).queryByText('Zonder naam')).toBeNull();
    expect(screen.getByRole('button', { name: 'Passkey toevoegen' })).toBeInTheDocument();
    expect(screen.getByLabelText('Naam van de beveiligingssleutel')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('says there are none yet', async () => {
    fakeAuthenticator();
    network([]);
    renderAt('/settings', routes);
    expect(
      await within(await section()).findByText('Je hebt nog geen beveiligingssleutels of passkeys.'),
    ).toBeVisible();
  });

  it('adds a security key with the name given and says so, the focus on the message', async () => {
    const requests = fakeAuthenticator();
    const calls = network([]);
    renderAt('/settings', routes);
    await userEvent.type(await screen.findByLabelText('Naam van de beveiligingssleutel'), 'YubiKey thuis');
    await userEvent.click(screen.getByRole('button', { name: 'Beveiligingssleutel toevoegen' }));
    const status = await screen.findByText('Beveiligingssleutel "YubiKey thuis" is toegevoegd.');
    await waitFor(() => expect(status.closest('[role="status"]')).toHaveFocus());
    const [body] = posted(calls);
    expect(body).toMatchObject({ method: 'webauthn', webauthn_register_displayname: 'YubiKey thuis', csrf_token: 'c' });
    expect(JSON.parse(String(body?.webauthn_register))).toMatchObject({
      id: 'a2V5LTI',
      response: { attestationObject: expect.any(String), clientDataJSON: expect.any(String) },
    });
    expect(body).not.toHaveProperty('passkey_create_data');
    expect(requests[0]?.kind).toBe('create');
  });

  it('asks for a name first, in Dutch, with the focus on the field, and asks the browser nothing', async () => {
    const requests = fakeAuthenticator();
    const calls = network([]);
    renderAt('/settings', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Beveiligingssleutel toevoegen' }));
    const field = screen.getByLabelText('Naam van de beveiligingssleutel');
    expect(field).toHaveFocus();
    expect(field).toHaveAccessibleDescription(
      'Bijvoorbeeld ‘YubiKey werk’. Geef de beveiligingssleutel een naam, zodat je hem later herkent.',
    );
    expect(requests).toEqual([]);
    expect(posted(calls)).toEqual([]);
  });

  it('adds a passkey and then offers backup codes to a person without them', async () => {
    fakeAuthenticator();
    const calls = network([], (body) => ({
      status: 200,
      body: settingsFlow(body.method === 'passkey' ? [passkey] : [passkey]),
    }));
    renderAt('/settings', routes);
    // A name is proposed from this browser and system, described, and sent along.
    const name = await screen.findByLabelText('Naam van de passkey');
    expect(name).toHaveValue(defaultPasskeyName());
    expect(defaultPasskeyName()).toMatch(/^Passkey op \S/);
    expect(name).toHaveAccessibleDescription('Zo herken je de passkey later in deze lijst. Je mag de naam aanpassen.');
    await userEvent.click(await screen.findByRole('button', { name: 'Passkey toevoegen' }));
    expect(await screen.findByText('Je passkey is toegevoegd. Je kunt er voortaan mee inloggen.')).toBeVisible();
    expect(posted(calls)[0]).toMatchObject({
      method: 'passkey',
      passkey_settings_register: expect.any(String),
      passkey_display_name: defaultPasskeyName(),
    });
    expect(screen.getByRole('heading', { name: 'Maak ook back-upcodes' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Nieuwe back-upcodes maken' }));
    await waitFor(() => expect(posted(calls)[1]).toMatchObject({ method: 'lookup_secret' }));
    expect(posted(calls)[1]).not.toHaveProperty('passkey_create_data');
  });

  it('sends the name the person gave the passkey', async () => {
    fakeAuthenticator();
    const calls = network([], () => ({ status: 200, body: settingsFlow([passkey]) }));
    renderAt('/settings', routes);
    const name = await screen.findByLabelText('Naam van de passkey');
    await userEvent.clear(name);
    await userEvent.type(name, 'Telefoon werk{Enter}');
    await waitFor(() =>
      expect(posted(calls)[0]).toMatchObject({ method: 'passkey', passkey_display_name: 'Telefoon werk' }),
    );
  });

  it('asks before removing a key, removes nothing when cancelled, and nothing else at all', async () => {
    fakeAuthenticator();
    const calls = network([securityKey, passkey], () => ({ status: 200, body: settingsFlow([passkey]) }));
    renderAt('/settings', routes);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Beveiligingssleutel "YubiKey werk" verwijderen' }),
    );
    const question = screen.getByRole('alertdialog', { name: 'Beveiligingssleutel verwijderen' });
    expect(question).toHaveTextContent('Dit kun je niet ongedaan maken.');
    await userEvent.click(within(question).getByRole('button', { name: 'Annuleren' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(posted(calls)).toEqual([]);
  });

  it('removes a key by its id once confirmed, and says which one went', async () => {
    fakeAuthenticator();
    const calls = network([securityKey, passkey], () => ({ status: 200, body: settingsFlow([passkey]) }));
    renderAt('/settings', routes);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Beveiligingssleutel "YubiKey werk" verwijderen' }),
    );
    const question = screen.getByRole('alertdialog', { name: 'Beveiligingssleutel verwijderen' });
    await userEvent.click(within(question).getByRole('button', { name: 'Verwijderen' }));
    expect(await screen.findByText('Beveiligingssleutel "YubiKey werk" is verwijderd.')).toBeVisible();
    expect(posted(calls)).toEqual([{ method: 'webauthn', webauthn_remove: '6b65792d31', csrf_token: 'c' }]);
    expect(screen.queryByRole('button', { name: /YubiKey werk/ })).toBeNull();
  });

  const GENERIC = 'Er ging iets mis. Probeer het opnieuw.';
  it("says the provider's reason in Dutch when it refuses, and when the browser stops", async () => {
    fakeAuthenticator({ refuse: true });
    network([securityKey, passkey], () => ({
      status: 400,
      body: settingsFlow([securityKey, passkey], [{ id: 4000001, text: 'x', type: 'error', context: { reason: 'x' } }]),
    }));
    renderAt('/settings', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Passkey toevoegen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Het toevoegen is gestopt of duurde te lang. Probeer het opnieuw.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Passkey verwijderen' }));
    const question = screen.getByRole('alertdialog', { name: 'Passkey verwijderen' });
    await userEvent.click(within(question).getByRole('button', { name: 'Verwijderen' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(GENERIC));
  });
});
