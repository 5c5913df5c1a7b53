import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserIdentity } from '../ports.js';
import { type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';

// 'Logboek' over the mounted Users API (Fastify inject, a migrated in-memory database): what an administrator of
// voorbeeldstad sees of its audit log, narrowed by person, action and period, a page at a time or as CSV.

let api: InProcessApi;
let admin: UserIdentity;
let anne: UserIdentity;
let dirk: UserIdentity;

const member = (org: string, relation = 'access') => ({ namespace: 'organizations', object: org, relation });

beforeEach(async () => {
  api = await inProcessUsersApi();
  admin = await api.person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    member('voorbeeldstad'),
    member('voorbeeldstad', 'admin'),
  ]);
  anne = await api.person('anne@voorbeeldstad.nl', 'voorbeeldstad', [member('voorbeeldstad')]);
  dirk = await api.person('dirk@dijkstad.nl', 'dijkstad', [member('dijkstad'), member('dijkstad', 'admin')]);
});

afterEach(() => api.close());

/** An entry at a moment of our choosing, as the sign-in auditor writes them. */
const signIn = (who: UserIdentity, org: string, at: string, result: 'success' | 'failure' = 'success') =>
  api.db.kysely
    .insertInto('audit_log' as never)
    .values({
      id: `00000000-0000-7000-8000-${Date.parse(at).toString(16).padStart(12, '0')}`,
      at,
      organisation_id: org,
      actor_id: who.id,
      actor_email: who.traits.email,
      action: 'sign_in.password',
      object_id: who.id,
      object_email: null,
      result,
      client_address: '192.0.2.7',
      details: null,
    } as never)
    .execute();

interface Page {
  entries: { action: string; sentence: string; label: string; outcome: string; organisationId: string }[];
  next_page_token: string;
  actions: { action: string; label: string }[];
}

const page = async (as: UserIdentity, query = '') => {
  const answer = await api.call(as, 'GET', `/api/audit${query}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as Page;
};

describe('Logboek', () => {
  it("shows an administrator their organisation's entries only, each in a Dutch sentence with names", async () => {
    expect((await api.call(admin, 'PUT', `/api/users/${anne.id}`, { state: 'inactive' })).statusCode).toBe(200);
    await signIn(dirk, 'dijkstad', '2026-11-20T09:00:00.000Z');
    await signIn(anne, 'voorbeeldstad', '2026-11-20T10:00:00.000Z', 'failure');
    const shown = await page(admin);
    expect(shown.entries.every((entry) => entry.organisationId === 'voorbeeldstad')).toBe(true);
    expect(shown.entries.map(({ sentence, label, outcome }) => ({ sentence, label, outcome }))).toEqual([
      { sentence: 'beheerder Test heeft anne Test geblokkeerd', label: 'Geblokkeerd', outcome: 'gelukt' },
      {
        sentence: 'Mislukte inlogpoging met het wachtwoord voor anne Test',
        label: 'Inloggen met het wachtwoord',
        outcome: 'mislukt',
      },
    ]);
    expect(shown.actions).toContainEqual({ action: 'user.block', label: 'Geblokkeerd' });
    expect((await page(dirk)).entries.map((entry) => entry.sentence)).toEqual([
      'dirk Test is ingelogd met het wachtwoord',
    ]);
  });

  it('narrows to a person by part of an address in any case, to an action, and to Dutch days', async () => {
    // 22:30 UTC on 19 November is 23:30 on the 19th in the Netherlands; 23:30 UTC is already the 20th there.
    await signIn(anne, 'voorbeeldstad', '2026-11-19T22:30:00.000Z');
    await signIn(anne, 'voorbeeldstad', '2026-11-19T23:30:00.000Z');
    await signIn(admin, 'voorbeeldstad', '2026-11-20T12:00:00.000Z');
    await signIn(anne, 'voorbeeldstad', '2026-11-21T12:00:00.000Z');
    const ats = async (query: string) =>
      (await page(admin, query)).entries.map((entry) => (entry as unknown as { at: string }).at);
    expect(await ats('?person=ANNE@')).toEqual([
      '2026-11-21T12:00:00.000Z',
      '2026-11-19T23:30:00.000Z',
      '2026-11-19T22:30:00.000Z',
    ]);
    expect(await ats('?from=2026-11-20&until=2026-11-20')).toEqual([
      '2026-11-20T12:00:00.000Z',
      '2026-11-19T23:30:00.000Z',
    ]);
    expect(await ats('?person=anne&until=2026-11-19')).toEqual(['2026-11-19T22:30:00.000Z']);
    expect(await ats('?action=user.block')).toEqual([]);
    expect(await ats('?person=%25')).toEqual([]);
    // Page by page, the filter holds on every page.
    const first = await page(admin, '?person=anne&page_size=2');
    expect(first.entries).toHaveLength(2);
    const second = await page(admin, `?person=anne&page_size=2&page_token=${first.next_page_token}`);
    expect(second.entries.map((entry) => (entry as unknown as { at: string }).at)).toEqual([
      '2026-11-19T22:30:00.000Z',
    ]);
    expect(second.next_page_token).toBe('');
  });

  it('refuses a filter it cannot apply with a Dutch message, and a member who is no administrator', async () => {
    const refused = async (query: string) => {
      const answer = await api.call(admin, 'GET', `/api/audit${query}`);
      expect(answer.statusCode).toBe(400);
      return (answer.json() as { error: { message: string } }).error.message;
    };
    expect(await refused('?action=user.steal')).toBe('Kies een actie uit de lijst.');
    expect(await refused('?from=2026-02-30')).toBe('Deze datum bestaat niet.');
    expect(await refused('?from=2026-11-21&until=2026-11-20')).toBe("'Tot en met' ligt voor 'Vanaf'.");
    expect(await refused('?page_token=niet-van-ons')).toBe('Deze pagina bestaat niet (meer).');
    expect(await refused(`?person=${'a'.repeat(255)}`)).toBe('Zoek op een deel van het e-mailadres.');
    expect((await api.call(anne, 'GET', '/api/audit')).statusCode).toBe(403);
    expect((await api.call(anne, 'GET', '/api/audit.csv')).statusCode).toBe(403);
  });

  it('writes nothing for a download it refuses: no export entry, no other row', async () => {
    await signIn(anne, 'voorbeeldstad', '2026-11-20T12:00:00.000Z');
    const before = await api.stored();
    for (const query of ['?action=user.steal', '?from=2026-11-21&until=2026-11-20', '?until=gisteren']) {
      expect((await api.call(admin, 'GET', `/api/audit.csv${query}`)).statusCode).toBe(400);
    }
    expect(await api.stored()).toEqual(before);
  });

  it('downloads what the filter leaves as CSV, and records that download in the log', async () => {
    await signIn(anne, 'voorbeeldstad', '2026-11-19T22:30:00.000Z', 'failure');
    await signIn(admin, 'voorbeeldstad', '2026-11-20T12:00:00.000Z');
    const answer = await api.call(admin, 'GET', '/api/audit.csv?person=anne');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="logboek-voorbeeldstad-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(answer.body.split('\r\n')).toEqual([
      '\uFEFFDatum en tijd;Actie;Gebeurtenis;Uitkomst;Door;Over;IP-adres',
      [
        '2026-11-19 23:30:00',
        'Inloggen met het wachtwoord',
        'Mislukte inlogpoging met het wachtwoord voor anne Test',
        'mislukt',
        'anne@voorbeeldstad.nl',
        '',
        '192.0.2.7',
      ].join(';'),
      '',
    ]);
    const [exported] = (await page(admin, '?action=audit.export')).entries as unknown as {
      sentence: string;
      details: Record<string, unknown>;
    }[];
    expect(exported).toMatchObject({
      sentence: 'beheerder Test heeft het logboek gedownload',
      details: { person: 'anne' },
    });
  });
});
