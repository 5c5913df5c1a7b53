import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { failure, identityApi, newBrowser } from '../support/ory.js';
import { STRONG_PASSWORD, createPasswordIdentity, uniqueEmail } from '../support/identities.js';
import { loginSecondFactor, loginWithPassword } from '../support/flows.js';

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

describe('admin identity API', () => {
  it('creates, gets, lists, patches and deletes an identity', async () => {
    const identities = identityApi(portaal.adminUrl);
    const email = uniqueEmail('beheer');
    const created = await identities.createIdentity({
      createIdentityBody: {
        schema_id: 'default',
        traits: { email, name: { first: 'Piet', last: 'Pieters' } },
        credentials: { password: { config: { password: STRONG_PASSWORD } } },
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`${portaal.adminUrl}/admin/identities/${created.data.id}`);
    expect(created.data.state).toBe('active');
    expect(created.data.credentials?.password?.identifiers).toEqual([email]);
    expect(created.data.credentials?.password?.config).toBeUndefined();

    const got = await identities.getIdentity({ id: created.data.id, includeCredential: ['password'] });
    expect((got.data.credentials!.password!.config as { hashed_password: string }).hashed_password).toMatch(
      /^\$argon2id\$/,
    );

    const listed = await identities.listIdentities({ credentialsIdentifier: email.toUpperCase() });
    expect(listed.data.map((i) => i.id)).toEqual([created.data.id]);
    const byIds = await identities.listIdentities({ ids: [created.data.id] });
    expect(byIds.data).toHaveLength(1);

    const patched = await identities.patchIdentity({
      id: created.data.id,
      jsonPatch: [
        { op: 'replace', path: '/traits/name/first', value: 'Pieter' },
        { op: 'add', path: '/metadata_public', value: { afdeling: 'Data' } },
      ],
    });
    expect(patched.data.traits.name.first).toBe('Pieter');
    expect(patched.data.metadata_public).toEqual({ afdeling: 'Data' });

    const deleted = await identities.deleteIdentity({ id: created.data.id });
    expect(deleted.status).toBe(204);
    expect((await failure(identities.getIdentity({ id: created.data.id }))).status).toBe(404);
    expect((await failure(identities.deleteIdentity({ id: created.data.id }))).status).toBe(404);
  });

  it("imports an authenticator app with Kratos v26's credential import, which then signs the person in", async () => {
    const email = uniqueEmail('app');
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const created = await identityApi(portaal.adminUrl).createIdentity({
      createIdentityBody: {
        schema_id: 'default',
        traits: { email, name: { first: 'Sam', last: 'Stad' } },
        credentials: {
          password: { config: { password: STRONG_PASSWORD } },
          totp: { config: { totp_url: `otpauth://totp/portaal:${email}?secret=${secret}&issuer=portaal` } },
          lookup_secret: { config: { codes: [{ code: 'abcd1234' }] } },
        },
      },
    });
    expect(created.status).toBe(201);
    const browser = newBrowser(portaal.publicUrl);
    expect((await loginWithPassword(browser, email, STRONG_PASSWORD)).session, 'the app asks for a second step').toBe(
      undefined,
    );
    const second = await loginSecondFactor(browser, secret);
    expect(second.session.authenticator_assurance_level).toBe('aal2');
  });

  it('refuses a duplicate e-mail with 409 and invalid traits with 400', async () => {
    const identities = identityApi(portaal.adminUrl);
    const existing = await createPasswordIdentity(identities);
    const duplicate = await failure(
      identities.createIdentity({
        createIdentityBody: {
          schema_id: 'default',
          traits: { email: existing.email, name: { first: 'A', last: 'B' } },
        },
      }),
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe(409);
    const invalid = await failure(
      identities.createIdentity({ createIdentityBody: { schema_id: 'default', traits: { email: 'geen-adres' } } }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe(400);
  });

  it('pages through identities with page tokens in the Link header', async () => {
    const identities = identityApi(portaal.adminUrl);
    for (let i = 0; i < 3; i += 1) await createPasswordIdentity(identities);
    const seen = new Set<string>();
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await identities.listIdentities({ pageSize: 2, pageToken: token });
      for (const i of page.data) seen.add(i.id);
      const next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link ?? ''))?.[1];
      token = next ? (new URL(next, portaal.adminUrl).searchParams.get('page_token') ?? undefined) : undefined;
      pages += 1;
    } while (token && pages < 100);
    const all = await identities.listIdentities({ pageSize: 500 });
    expect(seen.size).toBe(all.data.length);
    expect(pages).toBeGreaterThan(1);
  });

  it('lists and revokes the sessions of an identity', async () => {
    const identities = identityApi(portaal.adminUrl);
    const user = await createPasswordIdentity(identities);
    const browser = newBrowser(portaal.publicUrl);
    await loginWithPassword(browser, user.email, user.password);
    const sessions = await identities.listIdentitySessions({ id: user.id });
    expect(sessions.data).toHaveLength(1);
    await identities.deleteIdentitySessions({ id: user.id });
    expect((await failure(browser.frontend.toSession())).status).toBe(401);
  });

  it('makes an admin recovery code and link for an identity', async () => {
    const identities = identityApi(portaal.adminUrl);
    const user = await createPasswordIdentity(identities);
    const code = await identities.createRecoveryCodeForIdentity({
      createRecoveryCodeForIdentityBody: { identity_id: user.id, expires_in: '1h' },
    });
    expect(code.status).toBe(201);
    expect(code.data.recovery_code).toMatch(/^\d{6}$/);
    expect(code.data.recovery_link).toContain('/recovery?flow=');
    const link = await identities.createRecoveryLinkForIdentity({
      createRecoveryLinkForIdentityBody: { identity_id: user.id, expires_in: '72h' },
    });
    expect(link.data.recovery_link).toContain('/self-service/recovery?flow=');
    const browser = newBrowser(portaal.publicUrl);
    const followed = await browser.fetch(link.data.recovery_link, { redirect: 'manual' });
    expect(followed.status).toBe(303);
    expect(new URL(followed.headers.get('location')!).pathname).toBe('/settings');
    expect((await browser.frontend.toSession()).identity?.id).toBe(user.id);
  });
});
