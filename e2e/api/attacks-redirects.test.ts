import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, identityApi, newBrowser, type Browser } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { loginWithPassword } from '../support/flows.js';

// The open-redirect payload list (docs/security.md#33-redirect-targets-are-allow-listed, advisory row 10): every
// way of writing another host into `return_to` that browsers or URL parsers are known to accept. Each is either
// refused at flow creation, or lands on the portal's own origin, both in the flow and in every Location header up to
// the end of a sign-in; never on another host.

let portaal: Portaal;
let user: { email: string; password: string };
let signedIn: Browser;
beforeAll(async () => {
  portaal = await startPortaal({ env: { REGISTRATION_ENABLED: 'true' } });
  user = await createPasswordIdentity(identityApi(portaal.adminUrl));
  signedIn = newBrowser(portaal.publicUrl);
  await loginWithPassword(signedIn, user.email, user.password);
});
afterAll(async () => {
  await portaal?.stop();
});

const EVIL = 'evil.example';

/** Every payload, with the portal's host (`127.0.0.1:<port>`) where a trick needs it. */
function payloads(host: string): string[] {
  const [hostname, port] = host.split(':');
  return [
    `//${EVIL}`,
    `///${EVIL}`,
    `////${EVIL}/`,
    `/\\${EVIL}`,
    `\\\\${EVIL}`,
    `\\/${EVIL}`,
    `/\t/${EVIL}`,
    ` //${EVIL}`,
    `\n//${EVIL}`,
    `/%09/${EVIL}`,
    `/%2F%2F${EVIL}`,
    `%2F%2F${EVIL}`,
    `%2f%2f${EVIL}`,
    `/%5C${EVIL}`,
    `https:${EVIL}`,
    `https:/${EVIL}`,
    `https:\\\\${EVIL}`,
    `http://${EVIL}`,
    `HTTP://${EVIL.toUpperCase()}`,
    `https://${EVIL}/http://${host}/`,
    `//${EVIL}/%2F..`,
    `/.//${EVIL}`,
    `/..//${EVIL}`,
    `/self-service/../..//${EVIL}`,
    // Userinfo: the host is what follows the @.
    `http://${host}@${EVIL}`,
    `http://${host}%40${EVIL}`,
    `http://user:pass@${host}/`,
    `http://${EVIL}@${host}/`,
    `http://${host}\\@${EVIL}`,
    `http://${host}#@${EVIL}`,
    `http://${host}?@${EVIL}`,
    `http://${host}%2F@${EVIL}`,
    // Hosts that only start like the portal's.
    `http://${hostname}.${EVIL}:${port}/`,
    `http://${host}.${EVIL}/`,
    `http://${hostname}:${port}${EVIL}/`,
    `http://${hostname}%2e${EVIL}/`,
    `http://${hostname}\u3002${EVIL}/`,
    // Other spellings of a loopback host, and IPv6 literals.
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::ffff:7f00:1]:${port}/`,
    `http://[2001:db8::1]/`,
    `http://[${EVIL}]/`,
    `http://0x7f000001:${port}/`,
    `http://2130706433:${port}/`,
    `http://127.1:${port}/`,
    `http://localhost:${port}/`,
    `https://${host}/`,
    `http://${hostname}:${Number(port) + 1}/`,
    // Schemes that run or embed content.
    'javascript:alert(document.domain)',
    'JaVaScRiPt:alert(1)',
    `javascript://${EVIL}/%0aalert(1)`,
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    `ftp://${EVIL}/`,
    // Header injection and oversized values.
    `/%0d%0aLocation:%20http://${EVIL}`,
    `/\r\nLocation: http://${EVIL}`,
    `/${'a'.repeat(3000)}`,
    `http://${EVIL}/${'a'.repeat(3000)}`,
  ];
}

/** Whether a URL, read as a browser reads it relative to the portal, stays on the portal's origin. */
function staysHome(target: string): boolean {
  return new URL(target, portaal.publicUrl).origin === new URL(portaal.publicUrl).origin;
}

const KINDS = ['login', 'registration', 'recovery', 'verification', 'settings'] as const;

describe('return_to', () => {
  it.each(KINDS)('refuses every payload of the list at %s flow creation, or keeps it on the portal', async (kind) => {
    const client = kind === 'settings' ? signedIn : newBrowser(portaal.publicUrl);
    const host = new URL(portaal.publicUrl).host;
    let refused = 0;
    for (const payload of payloads(host)) {
      const url = `${portaal.publicUrl}/self-service/${kind}/browser?return_to=${encodeURIComponent(payload)}`;
      const json = await client.fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual' });
      const body = (await json.json()) as { return_to?: string; error?: { id: string; code: number } };
      if (json.status === 400) {
        expect(body.error?.id, payload).toBe('self_service_flow_return_to_forbidden');
        refused++;
      } else {
        expect(json.status, payload).toBe(200);
        expect(staysHome(body.return_to ?? '/'), `${payload} -> ${body.return_to}`).toBe(true);
      }
      const html = await client.fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' });
      await html.arrayBuffer();
      expect(html.status, payload).toBe(303);
      const location = html.headers.get('location')!;
      expect(staysHome(location), `${payload} -> ${location}`).toBe(true);
    }
    // Most payloads name another host; only the spellings of the portal's own paths pass.
    expect(refused).toBeGreaterThan(payloads(host).length / 2);
  });

  it('never sends a sign-in to another host: after the password, the browser goes to the portal', async () => {
    const host = new URL(portaal.publicUrl).host;
    let completed = 0;
    for (const payload of payloads(host)) {
      const browser = newBrowser(portaal.publicUrl);
      const created = await browser.fetch(
        `${portaal.publicUrl}/self-service/login/browser?return_to=${encodeURIComponent(payload)}`,
        { headers: { accept: 'application/json' } },
      );
      const flow = (await created.json()) as { id: string; ui: { nodes: any[] } };
      if (created.status !== 200) continue;
      const form = new URLSearchParams({
        method: 'password',
        identifier: user.email,
        password: user.password,
        csrf_token: csrfTokenOf(flow),
      });
      const done = await browser.fetch(`${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
        method: 'POST',
        headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        redirect: 'manual',
      });
      await done.arrayBuffer();
      expect(done.status, payload).toBe(303);
      const location = done.headers.get('location')!;
      expect(staysHome(location), `${payload} -> ${location}`).toBe(true);
      completed++;
    }
    // The portal's own paths in their odd spellings were accepted, and each sign-in ended on the portal.
    expect(completed).toBeGreaterThanOrEqual(5);
  });

  it('refuses every payload of the list as the return of a logout, or keeps it on the portal', async () => {
    const host = new URL(portaal.publicUrl).host;
    for (const payload of payloads(host)) {
      const answer = await signedIn.fetch(
        `${portaal.publicUrl}/self-service/logout/browser?return_to=${encodeURIComponent(payload)}`,
        { headers: { accept: 'application/json' } },
      );
      const body = (await answer.json()) as { logout_url?: string; error?: { id: string } };
      if (answer.status === 400) {
        expect(body.error?.id, payload).toBe('self_service_flow_return_to_forbidden');
        continue;
      }
      expect(answer.status, payload).toBe(200);
      const returnTo = new URL(body.logout_url!).searchParams.get('return_to');
      if (returnTo) expect(staysHome(returnTo), `${payload} -> ${returnTo}`).toBe(true);
    }
  });
});
