import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { newBrowser, type Browser } from '../support/ory.js';
import { uniqueEmail } from '../support/identities.js';
import { loginWithPassword } from '../support/flows.js';
import { api, createMember, DEMO_PASSWORD, databaseSnapshot } from '../support/portal-users.js';

// Hostile page tokens on every list that takes one (advisory row 3 in docs/security.md, Kratos GHSA-hgx2-28f8-6g2r:
// SQL injection through a page token): the admin identity list, the tuple list and the Users API's audit log. Each
// token is refused with the list's error envelope or gives a page of what the caller may see anyway; nothing is
// ever a 5xx, no row changes, and a crafted token never reaches another organisation's audit entries.

let portaal: Portaal;
let admin: Browser;
beforeAll(async () => {
  portaal = await startPortaal({ args: ['--demo'] });
  const email = uniqueEmail('bh').replace('voorbeeldstad.nl', 'dego.nl');
  const password = 'Kanaal-Tulp-Brug-31';
  await createMember(portaal, { email, password, org: 'dego', admin: true });
  admin = newBrowser(portaal.publicUrl);
  await loginWithPassword(admin, email, password);
  // Entries of another organisation in the same audit table: a sign-in of a member of Voorbeeldstad.
  await loginWithPassword(newBrowser(portaal.publicUrl), 'medewerker@voorbeeldstad.nl', DEMO_PASSWORD);
});
afterAll(async () => {
  await portaal?.stop();
});

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
const ZERO = '00000000-0000-0000-0000-000000000000';

const HOSTILE_TOKENS = [
  "' or '1'='1",
  '1; drop table identities; --',
  "x' union select id, traits from identities --",
  b64(`{"k":"${ZERO}' or '1'='1"}`),
  b64(`{"k":"' or 1=1 --"}`),
  b64(`{"after":"${ZERO}' or '1'='1"}`),
  b64(`{"after":"x' union select * from relation_tuples --"}`),
  b64(`{"at":"' or 1=1 --","id":"x"}`),
  b64(`{"at":"9999-12-31T23:59:59.999Z","id":"~"}`),
  b64(`{"at":"0000","id":"' or organisation_id <> '' --"}`),
  b64('{"at":{"$gt":""},"id":{"$ne":null}}'),
  b64('{"__proto__":{"k":"x","after":"x","at":"x","id":"x"}}'),
  b64(`{"k":"${ZERO.toUpperCase()}"}`),
  b64(`{"k":"${'f'.repeat(5000)}"}`),
  b64(`{"k":${JSON.stringify('\u0000')}}`),
  b64('null'),
  b64('[]'),
  b64('"x"'),
  b64('{"k":12345}'),
  b64('{"k":'),
  'eyJrIjoi',
  '%00',
  '\u202e',
  '../../etc/passwd',
  '-1',
  '0',
  '9'.repeat(400),
  'x'.repeat(10_000),
  '😀',
];

/** Every item of a list, page by page, as a client walks it without crafting anything. */
async function everyIdentityId(): Promise<string[]> {
  return ((await (await fetch(`${portaal.adminUrl}/admin/identities?page_size=500`)).json()) as { id: string }[]).map(
    (identity) => identity.id,
  );
}

describe('hostile page tokens', () => {
  it('on the admin identity list: refused with 400 or a page of real identities; nothing changes', async () => {
    const all = await everyIdentityId();
    const before = await databaseSnapshot(portaal);
    for (const token of HOSTILE_TOKENS) {
      const answer = await fetch(
        `${portaal.adminUrl}/admin/identities?page_size=2&page_token=${encodeURIComponent(token)}`,
        { headers: { accept: 'application/json' } },
      );
      const body = (await answer.json()) as any;
      expect(answer.status, token).toBeLessThan(500);
      if (answer.status === 200) {
        for (const identity of body) expect(all, token).toContain(identity.id);
      } else {
        expect(answer.status, token).toBe(400);
        expect(body.error.code, token).toBe(400);
      }
    }
    expect(await databaseSnapshot(portaal)).toBe(before);
    expect(await everyIdentityId()).toEqual(all);
  });

  it('on the relation tuple list: refused with 400 or a page of real tuples; nothing changes', async () => {
    const all = (await (await fetch(`${portaal.adminUrl}/relation-tuples?page_size=500`)).json()) as {
      relation_tuples: unknown[];
    };
    const known = all.relation_tuples.map((tuple) => JSON.stringify(tuple));
    const before = await databaseSnapshot(portaal);
    for (const token of HOSTILE_TOKENS) {
      const answer = await fetch(
        `${portaal.adminUrl}/relation-tuples?page_size=2&page_token=${encodeURIComponent(token)}`,
      );
      const body = (await answer.json()) as any;
      expect(answer.status, token).toBeLessThan(500);
      if (answer.status === 200) {
        for (const tuple of body.relation_tuples) expect(known, token).toContain(JSON.stringify(tuple));
      } else {
        expect(answer.status, token).toBe(400);
        expect(body.error.code, token).toBe(400);
      }
    }
    expect(await databaseSnapshot(portaal)).toBe(before);
  });

  it("on the Users API's audit log: refused with 400 or entries of the caller's organisation only", async () => {
    const own = await api(portaal, admin, 'GET', '/audit?page_size=200');
    expect(own.status).toBe(200);
    expect(own.body.entries.length).toBeGreaterThan(0);
    for (const entry of own.body.entries) expect(entry.organisationId).toBe('dego');
    const before = await databaseSnapshot(portaal);
    for (const token of HOSTILE_TOKENS) {
      const answer = await api(portaal, admin, 'GET', `/audit?page_size=200&page_token=${encodeURIComponent(token)}`);
      expect(answer.status, token).toBeLessThan(500);
      if (answer.status === 200) {
        for (const entry of answer.body.entries) expect(entry.organisationId, token).toBe('dego');
      } else {
        expect(answer.status, token).toBe(400);
        expect(answer.body.error.code, token).toBe(400);
        expect(typeof answer.body.error.message, token).toBe('string');
      }
    }
    // A valid token of the caller's own list still pages as before.
    const first = await api(portaal, admin, 'GET', '/audit?page_size=1');
    if (first.body.next_page_token) {
      const next = await api(portaal, admin, 'GET', `/audit?page_size=1&page_token=${first.body.next_page_token}`);
      expect(next.status).toBe(200);
      expect(next.body.entries[0].id).not.toBe(first.body.entries[0].id);
    }
    expect(await databaseSnapshot(portaal)).toBe(before);
  });
});
