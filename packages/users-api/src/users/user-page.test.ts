import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveCredential } from '../../../idp/src/identities/identity-repository.js';
import type { UserIdentity } from '../ports.js';
import { type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';
import { factsOf, hasStatus, STATUS_KEYS } from './user-status.js';

// GET /users a page at a time, and the CSV export, through the mounted Users API on the embedded backend
// (test-support/in-process-api.ts).

let api: InProcessApi;
let admin: UserIdentity;

const orgRelation = (org: string, relation = 'issuer') => ({ namespace: 'organizations', object: org, relation });
const NAMES = ['Zeger', 'anna', 'Bram', 'Émile', 'carla', 'Daan', 'eva'];

interface Page {
  items: {
    id: string;
    state: string;
    lastSignInAt?: string | null;
    traits: { email: string; name: { first: string } };
  }[];
  total: number;
  page: number;
  per_page: number;
}

const get = (url: string) => api.call(admin, 'GET', url);
async function page(query: string): Promise<Page> {
  const answer = await get(`/api/users?${query}`);
  expect(answer.statusCode).toBe(200);
  return answer.json();
}
const firsts = (answer: Page) => answer.items.map((u) => u.traits.name.first);

beforeEach(async () => {
  api = await inProcessUsersApi();
  admin = await api.person('zz-beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    orgRelation('voorbeeldstad'),
    orgRelation('voorbeeldstad', 'admin'),
  ]);
  for (const [day, name] of NAMES.entries()) {
    const user = await api.person(`${name.toLowerCase()}@voorbeeldstad.nl`, 'voorbeeldstad', [
      orgRelation('voorbeeldstad'),
    ]);
    // One account a day, so that 'newest first' has one answer.
    await api.db.kysely
      .updateTable('identities' as never)
      .set({ created_at: `2026-01-${String(day + 10)}T12:00:00.000Z` } as never)
      .where('id' as never, '=', user.id as never)
      .execute();
  }
  await api.person('dirk@dijkstad.nl', 'dijkstad', [orgRelation('dijkstad')]);
});

afterEach(() => api.close());

describe('GET /users a page at a time', () => {
  it('answers a page, the total and the page asked for; administrators first by default', async () => {
    const first = await page('page=1&per_page=3');
    expect([first.total, first.page, first.per_page]).toEqual([8, 1, 3]);
    expect(firsts(first)).toEqual(['zz-beheerder', 'anna', 'bram']);
    expect(firsts(await page('page=3&per_page=3'))).toEqual(['eva', 'zeger']);
    expect(await page('page=4&per_page=3')).toMatchObject({ items: [], total: 8 });
    expect((await page('per_page=50')).items).toHaveLength(8);
  });

  it('sorts by name, e-mail address and newest account', async () => {
    expect(firsts(await page('sort=name&per_page=4'))).toEqual(['anna', 'bram', 'carla', 'daan']);
    expect((await page('sort=email&per_page=2')).items.map((u) => u.traits.email)).toEqual([
      'anna@voorbeeldstad.nl',
      'bram@voorbeeldstad.nl',
    ]);
    expect(firsts(await page('sort=created&per_page=3'))).toEqual(['zz-beheerder', 'eva', 'daan']);
  });

  it('sorts by last sign-in afresh at every request, as sign-ins leave the kept order alone', async () => {
    const byName = new Map((await page('per_page=50')).items.map((u) => [u.traits.name.first, u]));
    await api.ctx.lastSignIns.record(byName.get('eva')!.id, new Date('2026-11-20T08:00:00Z'));
    await api.ctx.lastSignIns.record(byName.get('bram')!.id, new Date('2026-11-25T08:00:00Z'));
    expect(firsts(await page('sort=last_sign_in&per_page=4'))).toEqual(['bram', 'eva', 'anna', 'carla']);
    await api.ctx.lastSignIns.record(byName.get('eva')!.id, new Date('2026-11-26T08:00:00Z'));
    expect(firsts(await page('sort=last_sign_in&per_page=3'))).toEqual(['eva', 'bram', 'anna']);
    // The whole list's order is the same.
    const csv = (await get('/api/users.csv?sort=last_sign_in')).body.split('\r\n').filter(Boolean);
    expect(csv.slice(1, 4).map((line) => line.split(';')[0])).toEqual(['eva', 'bram', 'anna']);
  });

  it('searches the name or the address, case aside, and counts what it finds', async () => {
    expect(await page('q=%20ANNA%20')).toMatchObject({
      total: 1,
      items: [{ traits: { email: 'anna@voorbeeldstad.nl' } }],
    });
    expect(firsts(await page('q=VOORBEELDSTAD.NL&sort=name&per_page=2&page=2'))).toEqual(['carla', 'daan']);
    expect(await page('q=dirk')).toMatchObject({ total: 0, items: [] });
  });

  it('shows a change at the very next request', async () => {
    const [anna] = (await page('q=anna')).items;
    expect(anna!.state).toBe('active');
    expect((await api.call(admin, 'PUT', `/api/users/${anna!.id}`, { state: 'inactive' })).statusCode).toBe(200);
    expect((await page('q=anna')).items[0]!.state).toBe('inactive');
    // A sign-in changes no one's place in the list, and shows at once.
    expect(anna!.lastSignInAt).toBeNull();
    await api.ctx.lastSignIns.record(anna!.id, new Date('2026-11-20T08:05:00Z'));
    expect((await page('q=anna')).items[0]!.lastSignInAt).toBe('2026-11-20T08:05:00.000Z');
    await api.call(admin, 'DELETE', `/api/users?id=${anna!.id}`);
    expect(await page('q=anna')).toMatchObject({ total: 0 });
    expect(await api.ctx.lastSignIns.of([anna!.id])).toEqual(new Map());
    expect((await page('page=1')).total).toBe(7);
  });

  it('answers the whole list as before without paging fields; a page has the very same entries', async () => {
    // Someone of another organisation invited, and a member with a data role and a second factor.
    const dirk = await api.person('dirk-invited@dijkstad.nl', 'dijkstad', [orgRelation('dijkstad')]);
    const invited = await api.call(admin, 'POST', '/api/users', {
      traits: { email: dirk.traits.email },
      permissions: [{ namespace: 'subdivisions', object: 'ruimte_voorbeeldstad', relation: 'issuer' }],
    });
    expect(invited.statusCode).toBe(202);
    const [bram] = (await page('q=bram')).items;
    await api.ctx.lastSignIns.record(bram!.id, new Date());
    await api.ctx.backend.relations.patch({
      insert: [{ namespace: 'subdivisions', object: 'ruimte_voorbeeldstad', relation: 'issuer', subject_id: bram!.id }],
    });
    const whole = (await get('/api/users')).json();
    expect(Array.isArray(whole)).toBe(true);
    expect(whole).toHaveLength(9);
    expect(await page(`q=${dirk.traits.email}`)).toMatchObject({ total: 1, items: [{ invitation: {} }] });
    const paged = await page('per_page=200&sort=email');
    const byId = new Map(whole.map((u: { id: string }) => [u.id, u]));
    for (const item of paged.items) expect(item).toEqual(byId.get(item.id));
    expect((await get('/api/users?email=ANNA@voorbeeldstad.nl')).json()).toHaveLength(1);
    expect(await page('email=anna@voorbeeldstad.nl&page=1')).toMatchObject({ total: 1 });
    expect(byId.get(bram!.id)).toMatchObject({
      permissions: [{}, { roleId: 'ruimte' }],
      lastSignInAt: expect.any(String),
    });
  });

  it('refuses bad paging fields with a 400 and a Dutch message', async () => {
    for (const query of [
      'page=0',
      'page=-1',
      'page=1.5',
      'page=x',
      'per_page=0',
      'per_page=201',
      'sort=age',
      `q=${'a'.repeat(201)}`,
      'page=1&page=2',
    ]) {
      const answer = await get(`/api/users?${query}`);
      expect([query, answer.statusCode]).toEqual([query, 400]);
      expect(answer.json().error).toMatchObject({
        code: 400,
        message: 'De pagina, het aantal per pagina, de sortering, de status of de zoekterm is niet geldig.',
      });
    }
  });
});

describe('GET /users of one status', () => {
  const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
  const emails = (answer: Page) => answer.items.map((u) => u.traits.email);
  /** A sign-in lock in force on the address, as the identity provider keeps it. */
  const lockSignIns = async (email: string) => {
    const now = new Date().toISOString();
    const until = new Date(Date.now() + 600_000).toISOString();
    const lock = { key: `login:id:${sha256(email)}`, failures: 10, window_started_at: now, locked_until: until };
    await api.db.kysely
      .insertInto('throttles' as never)
      .values({ ...lock, updated_at: now } as never)
      .execute();
  };

  it('finds the active, blocked, locked, invited and those without a second factor, as seen here', async () => {
    const byName = new Map((await page('per_page=50')).items.map((u) => [u.traits.name.first, u]));
    const anna = byName.get('anna')!;
    const bram = byName.get('bram')!;
    const carla = byName.get('carla')!;
    expect((await api.call(admin, 'PUT', `/api/users/${anna.id}`, { state: 'inactive' })).statusCode).toBe(200);
    await lockSignIns(bram.traits.email);
    // Everyone but Carla and the administrator has no second factor; a guest's factors are not this organisation's.
    const clock = { now: () => new Date() };
    for (const id of [carla.id, admin.id])
      await api.db.kysely
        .transaction()
        .execute((trx) =>
          saveCredential(trx, clock, id, 'totp', { totp_url: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' }, []),
        );
    const guest = await api.person('gast@dijkstad.nl', 'dijkstad', [
      orgRelation('dijkstad'),
      orgRelation('voorbeeldstad', 'access'),
    ]);
    // The guest's lock is Dijkstad's business: here the guest counts as active.
    await lockSignIns(guest.traits.email);
    const invitee = await api.person('ina@dijkstad.nl', 'dijkstad', [orgRelation('dijkstad')]);
    const invited = await api.call(admin, 'POST', '/api/users', {
      traits: { email: invitee.traits.email },
      permissions: [],
    });
    expect(invited.statusCode).toBe(202);

    expect(emails(await page('status=blocked'))).toEqual(['anna@voorbeeldstad.nl']);
    expect(emails(await page('status=locked'))).toEqual(['bram@voorbeeldstad.nl']);
    expect(emails(await page('status=invited'))).toEqual(['ina@dijkstad.nl']);
    expect(emails(await page('status=no_second_factor&sort=name'))).toEqual([
      'anna@voorbeeldstad.nl',
      'bram@voorbeeldstad.nl',
      'daan@voorbeeldstad.nl',
      'émile@voorbeeldstad.nl',
      'eva@voorbeeldstad.nl',
      'zeger@voorbeeldstad.nl',
    ]);
    const active = await page('status=active&sort=name&per_page=3');
    expect([active.total, ...emails(active)]).toEqual([
      7,
      'carla@voorbeeldstad.nl',
      'daan@voorbeeldstad.nl',
      'émile@voorbeeldstad.nl',
    ]);
    expect(emails(await page('status=active&q=gast'))).toEqual([guest.traits.email]);
    // With a search, and in the CSV download.
    expect(await page('status=no_second_factor&q=da')).toMatchObject({
      total: 1,
      items: [{ traits: { email: 'daan@voorbeeldstad.nl' } }],
    });
    const csv = (await get('/api/users.csv?status=locked')).body.split('\r\n').filter(Boolean);
    expect(csv.slice(1).map((line) => line.split(';')[2])).toEqual(['bram@voorbeeldstad.nl']);
    // The page's narrow read decides as the whole list's entries show the people.
    const whole = (await get('/api/users')).json() as (Parameters<typeof factsOf>[0] & { id: string })[];
    for (const status of STATUS_KEYS) {
      const expected = whole.filter((entry) => hasStatus(factsOf(entry), status)).map((entry) => entry.id);
      const found = (await page(`status=${status}&per_page=200`)).items.map((entry) => entry.id);
      expect([status, ...found.sort()]).toEqual([status, ...expected.sort()]);
    }
    expect((await get('/api/users?status=gone')).statusCode).toBe(400);
    expect((await get('/api/users.csv?status=gone')).statusCode).toBe(400);
  });
});

describe('GET /users.csv', () => {
  it('streams everyone the search leaves, in the order asked, as an attachment', async () => {
    const answer = await get('/api/users.csv?q=AN&sort=name');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="gebruikers-voorbeeldstad-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = answer.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^\uFEFFVoornaam;Achternaam;E-mailadres;/);
    expect(lines.slice(1).map((line) => line.split(';')[0])).toEqual(['anna', 'daan']);
    expect((await get('/api/users.csv?sort=nope')).statusCode).toBe(400);
  });

  it('is for administrators only', async () => {
    const [anna] = (await page('q=anna')).items;
    const [identity] = await api.ctx.backend.identities.get([anna!.id]);
    expect((await api.call(identity, 'GET', '/api/users.csv')).statusCode).toBe(403);
    expect((await api.call(identity, 'GET', '/api/users?page=1')).statusCode).toBe(403);
  });
});
