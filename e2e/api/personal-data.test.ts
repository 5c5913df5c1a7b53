import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, uniqueEmail } from '../support/identities.js';
import { DEMO_PASSWORD, type Person, api, portaalCli, signInAtAal1, signInAtAal2 } from '../support/portal-users.js';
import { startPortaal, type Portaal } from '../support/portaal.js';

/**
 * A person's data under the AVG: `portaal user export` gives everything held about them (article 15) without a
 * secret; deleting the account removes the mails sent to it (article 17); the audit log is kept for
 * AUDIT_RETENTION only.
 */
let portaal: Portaal;
let bea: Person;
beforeAll(async () => {
  portaal = await startPortaal({ args: ['--demo'], env: { AUDIT_RETENTION: '4s' } });
  bea = await signInAtAal2(portaal, 'beheerder@voorbeeldstad.nl', DEMO_PASSWORD);
});
afterAll(async () => {
  await portaal?.stop();
});

const exported = (email: string) => portaalCli(portaal, ['user', 'export', '--email', email]);

describe("a person's data", () => {
  it('is exported whole: identity, credentials by type, sessions, organisations, mails and audit entries', async () => {
    const email = uniqueEmail('avg');
    const created = await api(portaal, bea.browser, 'POST', '/users', {
      traits: { email, name: { first: 'Avg', last: 'Verzoek' } },
      permissions: [],
    });
    expect(created.status).toBe(201);
    await portaal.mail.waitFor(email);

    const answer = exported(email);
    expect(answer.status, answer.stderr).toBe(0);
    const data = JSON.parse(answer.stdout);
    expect(data.identity.traits.email).toBe(email);
    expect(data.identity.metadata_admin).toMatchObject({ home_organisation: 'voorbeeldstad' });
    expect(data.relations).toEqual([expect.objectContaining({ object: 'voorbeeldstad', relation: 'issuer' })]);
    expect(data.mails.map((m: { template_type: string }) => m.template_type)).toEqual(['invitation']);
    expect(data.audit.map((e: { action: string }) => e.action)).toContain('user.create');

    const admin = JSON.parse(exported('beheerder@voorbeeldstad.nl').stdout);
    expect(admin.credentials.map((c: { type: string }) => c.type).sort()).toEqual(['password', 'totp']);
    expect(admin.sessions.length).toBeGreaterThan(0);
    expect(admin.audit.map((e: { action: string }) => e.action)).toContain('sign_in.password');
    // Never a secret: no password hash, TOTP secret, session token or mail body.
    expect(exported('beheerder@voorbeeldstad.nl').stdout).not.toMatch(/\$argon2|otpauth:|ory_st_|totp_url|body/);
  });

  it('says so for an address without an account', () => {
    const answer = exported('niemand@voorbeeldstad.nl');
    expect(answer.status).toBe(1);
    expect(answer.stderr).toContain('er is geen account met niemand@voorbeeldstad.nl');
  });

  it('loses its mails with the account: a new account at the same address starts without them', async () => {
    const email = uniqueEmail('weg');
    await api(portaal, bea.browser, 'POST', '/users', { traits: { email, name: { first: 'Weg', last: 'Ermee' } } });
    await portaal.mail.waitFor(email);
    const id = JSON.parse(exported(email).stdout).identity.id;
    expect((await api(portaal, bea.browser, 'DELETE', `/users?id=${id}`)).status).toBe(204);
    const again = portaalCli(portaal, [
      'user',
      'create',
      '--email',
      email,
      '--first-name',
      'Weer',
      '--last-name',
      'Nieuw',
      '--password',
      STRONG_PASSWORD,
    ]);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(exported(email).stdout).mails).toEqual([]);
  });

  it('keeps audit entries for AUDIT_RETENTION only', async () => {
    await signInAtAal1(portaal, 'analist@dego.nl', DEMO_PASSWORD);
    const before = JSON.parse(exported('analist@dego.nl').stdout).audit;
    expect(before.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    await portaal.kill();
    await portaal.restart();
    expect(JSON.parse(exported('analist@dego.nl').stdout).audit).toEqual([]);
  });
});
