import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserIdentity } from '../ports.js';
import { type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';

// 'Toegangsreview' over the mounted Users API (Fastify inject, a migrated in-memory database): who holds which data
// role of voorbeeldstad, a review that keeps or withdraws each, and the finished review kept and downloadable.

let api: InProcessApi;
let admin: UserIdentity;
let anne: UserIdentity;
let dirk: UserIdentity;

const member = (org: string, relation = 'issuer') => ({ namespace: 'organizations', object: org, relation });
const role = (object: string) => ({ namespace: 'subdivisions', object, relation: 'issuer' });

interface ToDo {
  organisation: { id: string; label: string };
  people: {
    userId: string;
    email: string;
    lastSignInAt: string | null;
    factors: string[] | null;
    dataRoles: { roleId: string; label: string }[];
  }[];
  lastReview: { id: string; reviewedByEmail: string; kept: number; withdrawn: number } | null;
}

beforeEach(async () => {
  api = await inProcessUsersApi();
  admin = await api.person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    member('voorbeeldstad'),
    member('voorbeeldstad', 'admin'),
  ]);
  anne = await api.person('anne@voorbeeldstad.nl', 'voorbeeldstad', [
    member('voorbeeldstad'),
    role('sociaal-domein_voorbeeldstad'),
    role('financien_voorbeeldstad'),
  ]);
  // At home in dijkstad, a guest in voorbeeldstad: voorbeeldstad does not see her factors.
  await api.person('gast@dijkstad.nl', 'dijkstad', [
    member('dijkstad'),
    member('voorbeeldstad'),
    role('ruimte_voorbeeldstad'),
  ]);
  dirk = await api.person('dirk@dijkstad.nl', 'dijkstad', [
    member('dijkstad'),
    member('dijkstad', 'admin'),
    role('veiligheid_dijkstad'),
  ]);
});

afterEach(() => api.close());

const toDo = async (as: UserIdentity) => {
  const answer = await api.call(as, 'GET', '/api/access-review');
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as ToDo;
};

const decisionsFor = (shown: ToDo, withdraw: { userId: string; roleId: string }[] = []) =>
  shown.people.flatMap((person) =>
    person.dataRoles.map(({ roleId }) => ({
      userId: person.userId,
      roleId,
      decision: withdraw.some((w) => w.userId === person.userId && w.roleId === roleId) ? 'withdraw' : 'keep',
    })),
  );

describe('Toegangsreview', () => {
  it("lists who holds which of the organisation's data roles, by name, factors only of its own people", async () => {
    const shown = await toDo(admin);
    expect(shown.organisation).toEqual({ id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad' });
    expect(
      shown.people.map(({ email, dataRoles, factors, lastSignInAt }) => ({ email, dataRoles, factors, lastSignInAt })),
    ).toEqual([
      {
        email: 'anne@voorbeeldstad.nl',
        dataRoles: [
          { roleId: 'sociaal-domein', label: 'Sociaal domein' },
          { roleId: 'financien', label: 'Financiën' },
        ],
        factors: [],
        lastSignInAt: null,
      },
      {
        email: 'gast@dijkstad.nl',
        dataRoles: [{ roleId: 'ruimte', label: 'Ruimte en wonen' }],
        factors: null,
        lastSignInAt: null,
      },
    ]);
    expect(shown.lastReview).toBeNull();
    expect((await toDo(dirk)).people.map((p) => p.email)).toEqual(['dirk@dijkstad.nl']);
  });

  it('withdraws what was marked at once, keeps the review as evidence, audits it and exports it', async () => {
    const withdrawn = { userId: anne.id, roleId: 'financien' };
    const finished = await api.call(admin, 'POST', '/api/access-reviews', {
      decisions: decisionsFor(await toDo(admin), [withdrawn]),
    });
    expect(finished.statusCode, finished.body).toBe(201);
    const review = finished.json() as { id: string; kept: number; withdrawn: number; reviewedByEmail: string };
    expect(review).toMatchObject({ kept: 2, withdrawn: 1, reviewedByEmail: 'beheerder@voorbeeldstad.nl' });

    const tuples = await api.ctx.backend.relations.list({ subject_id: anne.id, namespace: 'subdivisions' });
    expect(tuples.map((t) => t.object)).toEqual(['sociaal-domein_voorbeeldstad']);
    const again = await toDo(admin);
    expect(again.lastReview).toMatchObject({ id: review.id, kept: 2, withdrawn: 1 });
    expect(again.people.find((p) => p.userId === anne.id)?.dataRoles.map((r) => r.roleId)).toEqual(['sociaal-domein']);

    // What a person's export (AVG article 15) finds of the review.
    expect((await api.ctx.reviews.about(anne.id)).map((item) => `${item.dataRoleId} ${item.decision}`)).toEqual([
      'sociaal-domein keep',
      'financien withdraw',
    ]);
    const listed = await api.call(admin, 'GET', '/api/access-reviews');
    expect(listed.json()).toEqual([expect.objectContaining({ id: review.id })]);
    const csv = await api.call(admin, 'GET', `/api/access-reviews/${review.id}.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="toegangsreview-voorbeeldstad-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Review;Afgerond op;Beoordeeld door;Naam;E-mailadres;Datarol;Laatst ingelogd;Tweede factor;Besluit',
    );
    expect(lines.slice(1).map((line) => line.split(';').slice(4).join(';'))).toEqual([
      'anne@voorbeeldstad.nl;Sociaal domein;nog nooit;geen;behouden',
      'anne@voorbeeldstad.nl;Financiën;nog nooit;geen;ingetrokken',
      'gast@dijkstad.nl;Ruimte en wonen;nog nooit;;behouden',
    ]);

    const audit = await api.call(admin, 'GET', '/api/audit');
    const sentences = (audit.json() as { entries: { sentence: string }[] }).entries.map((e) => e.sentence);
    expect(sentences.slice(0, 3)).toEqual([
      'beheerder Test heeft een toegangsreview gedownload',
      'beheerder Test heeft een toegangsreview afgerond',
      'beheerder Test heeft een datarol of beheerrecht van anne Test ingetrokken',
    ]);
  });

  it('refuses a review that misses, repeats or adds a data role, and writes nothing', async () => {
    const shown = await toDo(admin);
    const all = decisionsFor(shown);
    const before = await api.stored();
    const refused = [
      all.slice(1),
      [...all, all[0]!],
      [...all, { userId: dirk.id, roleId: 'veiligheid', decision: 'withdraw' }],
      all.map((d, i) => (i === 0 ? { ...d, roleId: 'ruimte' } : d)),
    ];
    for (const decisions of refused) {
      const answer = await api.call(admin, 'POST', '/api/access-reviews', { decisions });
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().error.id).toBe('review_outdated');
    }
    const malformed = await api.call(admin, 'POST', '/api/access-reviews', {
      decisions: [{ ...all[0], decision: 'misschien' }],
    });
    expect(malformed.statusCode).toBe(400);
    expect(await api.stored()).toEqual(before);
  });

  it('is for administrators only: a member is refused and only the refusal is written', async () => {
    const before = await api.stored();
    for (const [method, url, body] of [
      ['GET', '/api/access-review'],
      ['POST', '/api/access-reviews', { decisions: [] }],
      ['GET', '/api/access-reviews'],
    ] as const) {
      const answer = await api.call(anne, method, url, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
    }
    const after = await api.stored();
    expect({ ...after, audit_log: [] }).toEqual({ ...before, audit_log: [] });
    const results = (after.audit_log as string[]).map((row) => (JSON.parse(row) as { result: string }).result);
    expect(results).toEqual(['denied', 'denied', 'denied']);
  });

  it("answers 404 for another organisation's review, and a review with nothing to decide is refused", async () => {
    const finished = await api.call(dirk, 'POST', '/api/access-reviews', { decisions: decisionsFor(await toDo(dirk)) });
    expect(finished.statusCode).toBe(201);
    const { id } = finished.json() as { id: string };
    expect((await api.call(admin, 'GET', `/api/access-reviews/${id}.csv`)).statusCode).toBe(404);
    expect((await api.call(admin, 'GET', '/api/access-reviews/geen-id.csv')).statusCode).toBe(404);
    const dego = await api.person('beheer@dego.nl', 'dego', [member('dego'), member('dego', 'admin')]);
    const empty = await api.call(dego, 'POST', '/api/access-reviews', { decisions: [] });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().error.id).toBe('nothing_to_review');
  });
});
