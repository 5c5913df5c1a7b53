import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { DEMO_PASSWORD, api, createMember, signInAtAal1, signInAtAal2, type Person } from '../support/portal-users.js';

// GET /api/users a page at a time and GET /api/users.csv (docs/architecture.md#the-users-list-a-page-at-a-time),
// on a running portaal: SQLite, PostgreSQL, and the Ory adapter (scripts/integration.mjs).

const BEA = 'beheerder@voorbeeldstad.nl';
const DEGO_ADMIN = 'beheer-paging@dego.nl';
const DEGO_PASSWORD = 'Duinen-Strand-Golf-31';
/** Sixty people whose names and addresses share a word that nothing else in the demo has. */
const PEOPLE = 60;
const RUN = Math.random().toString(36).slice(2, 8);
const nameOf = (i: number) => `Pagina ${String(i).padStart(2, '0')}`;
const emailOf = (i: number) => `pg${RUN}-${String(i).padStart(2, '0')}@voorbeeldstad.nl`;

interface Listed {
  id: string;
  state: string;
  traits: { email: string; name: { first: string; last: string } };
  userType: { id: string };
  created_at: string;
}
interface Page {
  items: Listed[];
  total: number;
  page: number;
  per_page: number;
}

let portaal: Deployment;
let bea: Person;
let degoAdmin: Person;

const page = async (query: string, who = bea): Promise<Page> => {
  const answer = await api<Page>(portaal, who.browser, 'GET', `/users?${query}`);
  expect(answer.status, query).toBe(200);
  return answer.body;
};
const names = (answer: Page) => answer.items.map((u) => `${u.traits.name.first} ${u.traits.name.last}`);

beforeAll(async () => {
  portaal = await startDeployment({ args: ['--demo'] });
  bea = await signInAtAal2(portaal, BEA, DEMO_PASSWORD);
  await createMember(portaal, { email: DEGO_ADMIN, password: DEGO_PASSWORD, org: 'dego', admin: true, first: 'Daan' });
  degoAdmin = await signInAtAal1(portaal, DEGO_ADMIN, DEGO_PASSWORD);
  // In a shuffled order, so that the orders asked for are the server's and not the order of creation.
  const order = Array.from({ length: PEOPLE }, (_, i) => (i * 37) % PEOPLE);
  for (const i of order) {
    const created = await api(portaal, bea.browser, 'POST', '/users', {
      traits: { email: emailOf(i), name: { first: nameOf(i), last: i % 2 ? 'Zuid' : 'noord' } },
    });
    expect(created.status).toBe(201);
  }
}, 180_000);
afterAll(async () => {
  await portaal?.stop();
});

describe('GET /api/users a page at a time', () => {
  it('answers pages of the size asked with the total, the default order administrators first', async () => {
    const whole = (await api(portaal, bea.browser, 'GET', '/users')).body as Listed[];
    const first = await page('page=1&per_page=25');
    expect(first).toMatchObject({ total: whole.length, page: 1, per_page: 25 });
    expect(first.items).toHaveLength(25);
    expect(first.items[0]!.traits.email).toBe(BEA);
    const pages = Math.ceil(whole.length / 25);
    const last = await page(`page=${pages}&per_page=25`);
    expect(last.items).toHaveLength(whole.length - (pages - 1) * 25);
    expect((await page(`page=${pages + 1}&per_page=25`)).items).toEqual([]);
    // Every person once over all pages, and each entry as the whole list has it.
    const all: Listed[] = [];
    for (let n = 1; n <= pages; n += 1) all.push(...(await page(`page=${n}&per_page=25`)).items);
    expect(new Set(all.map((u) => u.id)).size).toBe(whole.length);
    const byId = new Map(whole.map((u) => [u.id, u]));
    for (const entry of all) expect(entry).toEqual(byId.get(entry.id));
    expect((await page('sort=type')).per_page).toBe(50);
  });

  it('sorts by name, e-mail address, user type and newest account, in Dutch order', async () => {
    const found = `q=pg${RUN}&per_page=200`;
    const collator = new Intl.Collator('nl', { sensitivity: 'base' });
    const byName = names(await page(`${found}&sort=name`));
    expect(byName).toEqual([...byName].sort(collator.compare));
    expect(byName.slice(0, 2)).toEqual(['Pagina 00 noord', 'Pagina 01 Zuid']);
    const byEmail = (await page(`${found}&sort=email`)).items.map((u) => u.traits.email);
    expect(byEmail).toEqual(Array.from({ length: PEOPLE }, (_, i) => emailOf(i)));
    const byType = (await page('sort=type&per_page=200')).items;
    const firstAnalyst = byType.findIndex((u) => u.userType.id !== 'administrator');
    expect(byType.slice(firstAnalyst).every((u) => u.userType.id !== 'administrator')).toBe(true);
    const created = (await page('sort=created&per_page=200')).items.map((u) => u.created_at);
    expect(created).toEqual([...created].sort().reverse());
    // By last sign-in: Bea signed in for this test; the sixty never did, and follow by name.
    const bySignIn = await page('sort=last_sign_in&per_page=200');
    expect(bySignIn.items[0]!.traits.email).toBe(BEA);
    const neverSignedIn = bySignIn.items.filter((u) => u.traits.email.startsWith(`pg${RUN}`));
    expect(names({ ...bySignIn, items: neverSignedIn })).toEqual(byName);
  });

  it('searches a part of the name or the address, case aside, over every page', async () => {
    expect(await page(`q=PAGINA%2042`)).toMatchObject({ total: 1, items: [{ traits: { email: emailOf(42) } }] });
    expect((await page(`q=${emailOf(7).toUpperCase()}`)).total).toBe(1);
    const second = await page(`q=pg${RUN}&sort=email&per_page=25&page=2`);
    expect(second.total).toBe(PEOPLE);
    expect(second.items[0]!.traits.email).toBe(emailOf(25));
    expect((await page('q=niemand-heet-zo')).total).toBe(0);
  });

  it("shows an administrator only their own organisation's people", async () => {
    const dego = await page('per_page=200', degoAdmin);
    expect(dego.items.some((u) => u.traits.email.startsWith(`pg${RUN}`))).toBe(false);
    expect(dego.items.some((u) => u.traits.email === DEGO_ADMIN)).toBe(true);
    expect((await page(`q=pg${RUN}`, degoAdmin)).total).toBe(0);
    const csv = await degoAdmin.browser.fetch(`${portaal.apiUrl}/api/users.csv?q=pg${RUN}`);
    expect((await csv.text()).split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it('shows a blocked, renamed or deleted person so at the very next request', async () => {
    const [person] = (await page(`q=${emailOf(3)}`)).items;
    expect(person!.state).toBe('active');
    const blocked = await api(portaal, bea.browser, 'PUT', `/users/${person!.id}`, { state: 'inactive' });
    expect(blocked.status).toBe(200);
    expect((await page(`q=${emailOf(3)}`)).items[0]!.state).toBe('inactive');
    // The status 'blocked' finds them at once, and 'active' no longer does (on Ory and the embedded backend alike).
    expect((await page(`q=pg${RUN}&status=blocked`)).items.map((u) => u.id)).toEqual([person!.id]);
    expect((await page(`q=pg${RUN}&status=active`)).total).toBe(PEOPLE - 1);
    expect((await page(`q=pg${RUN}&status=no_second_factor`)).total).toBe(PEOPLE);
    await api(portaal, bea.browser, 'PUT', `/users/${person!.id}`, {
      state: 'active',
      traits: { email: emailOf(3), name: { first: 'Aaron', last: 'Eerst' } },
    });
    expect(names(await page(`q=pg${RUN}&sort=name&per_page=1`))).toEqual(['Aaron Eerst']);
    expect((await api(portaal, bea.browser, 'DELETE', `/users?id=${person!.id}`)).status).toBe(204);
    expect((await page(`q=${emailOf(3)}`)).total).toBe(0);
    expect((await page(`q=pg${RUN}`)).total).toBe(PEOPLE - 1);
  });

  it('shows a person another process adds at the very next request; a sign-in meanwhile changes nothing', async () => {
    const cli = `cli-${RUN}@voorbeeldstad.nl`;
    expect((await page(`q=${cli}`)).total).toBe(0);
    // A sign-in writes a flow, a session and an audit entry: none of them is a change to the list.
    await signInAtAal1(portaal, DEGO_ADMIN, DEGO_PASSWORD);
    expect((await page(`q=${cli}`)).total).toBe(0);
    await createMember(portaal, {
      email: cli,
      password: DEGO_PASSWORD,
      org: 'voorbeeldstad',
      first: 'Pagina',
      last: 'Cli',
    });
    expect(names(await page(`q=${cli}`))).toEqual(['Pagina Cli']);
  });

  it('refuses bad paging fields with a 400 in the error envelope, in Dutch', async () => {
    for (const query of [
      'page=0',
      'page=abc',
      'per_page=1000',
      'per_page=-5',
      'sort=leeftijd',
      `q=${'x'.repeat(300)}`,
    ]) {
      const answer = await api(portaal, bea.browser, 'GET', `/users?${query}`);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(answer.body.error).toMatchObject({
        code: 400,
        message: 'De pagina, het aantal per pagina, de sortering, de status of de zoekterm is niet geldig.',
      });
    }
  });

  it('answers the whole list as before without paging fields', async () => {
    const whole = await api(portaal, bea.browser, 'GET', '/users');
    expect(Array.isArray(whole.body)).toBe(true);
    const one = await api(portaal, bea.browser, 'GET', `/users?email=${encodeURIComponent(emailOf(5))}`);
    expect(one.body).toHaveLength(1);
    expect(one.body[0].traits.email).toBe(emailOf(5));
  });

  it('streams the CSV file of everyone a search leaves, in the order asked', async () => {
    const answer = await bea.browser.fetch(`${portaal.apiUrl}/api/users.csv?q=PG${RUN}&sort=email`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="gebruikers-voorbeeldstad-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      'Voornaam;Achternaam;E-mailadres;Type gebruiker;Datarollen;' +
        'Aangemaakt;Status;Authenticator-app;Tweede factor;E-mailadres bevestigd;Laatst ingelogd',
    );
    const emails = lines.slice(1).map((line) => line.split(';')[2]);
    expect(emails).toEqual(
      Array.from({ length: PEOPLE }, (_, i) => emailOf(i)).filter((email) => email !== emailOf(3)),
    );
    expect(lines[1]).toMatch(
      /^Pagina 00;noord;pg\w+-00@voorbeeldstad\.nl;Medewerker;;\d{4}-\d\d-\d\d;actief;nee;geen;nee;nog nooit$/,
    );
    expect((await bea.browser.fetch(`${portaal.apiUrl}/api/users.csv?sort=x`)).status).toBe(400);
  });
});
