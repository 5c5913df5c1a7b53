import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { uniqueEmail } from '../support/identities.js';
import {
  DEMO_PASSWORD,
  api,
  createMember,
  databaseSnapshot,
  signInAtAal2,
  writeTuple,
  type Person,
} from '../support/portal-users.js';

// 'Toegangsreview' on a running portaal: SQLite, PostgreSQL, and the Ory adapter (scripts/integration.mjs). A data
// role withdrawn in a review ends the person's access to its data service at the very next check.

const BEA = 'beheerder@voorbeeldstad.nl';
const PASSWORD = 'Review-Kaart-Wijk-2026';

interface ToDo {
  people: { userId: string; email: string; dataRoles: { roleId: string }[] }[];
}

let portaal: Deployment;
let bea: Person;
let lid: Person;
let lidId: string;

/** The check nginx makes for the youth-care dashboard, whose access rule is the data role 'Sociaal domein'. */
const dashboard = (who: Person) =>
  api(portaal, who.browser, 'GET', '/forward-auth?service=jeugdzorg-dashboard').then((answer) => answer.status);

const toDo = async () => {
  const answer = await api<ToDo>(portaal, bea.browser, 'GET', '/access-review');
  expect(answer.status).toBe(200);
  return answer.body;
};

const decisionsOf = (shown: ToDo, withdraw: (userId: string, roleId: string) => boolean) =>
  shown.people.flatMap((person) =>
    person.dataRoles.map(({ roleId }) => ({
      userId: person.userId,
      roleId,
      decision: withdraw(person.userId, roleId) ? 'withdraw' : 'keep',
    })),
  );

beforeAll(async () => {
  portaal = await startDeployment({ args: ['--demo'] });
  bea = await signInAtAal2(portaal, BEA, DEMO_PASSWORD);
  const email = uniqueEmail('review');
  lidId = await createMember(portaal, { email, password: PASSWORD, org: 'voorbeeldstad', first: 'Rita' });
  await writeTuple(portaal.adminUrl, 'PUT', {
    namespace: 'subdivisions',
    object: 'sociaal-domein_voorbeeldstad',
    relation: 'issuer',
    subject_id: lidId,
  });
  lid = await signInAtAal2(portaal, email, PASSWORD);
});
afterAll(async () => {
  await portaal?.stop();
});

describe('Toegangsreview', () => {
  it('refuses a member, and a review that misses a data role, and changes nothing', async () => {
    const before = await databaseSnapshot(portaal);
    const decisions = decisionsOf(await toDo(), () => false);
    expect((await api(portaal, lid.browser, 'GET', '/access-review')).status).toBe(403);
    expect((await api(portaal, lid.browser, 'POST', '/access-reviews', { decisions })).status).toBe(403);
    const missing = await api(portaal, bea.browser, 'POST', '/access-reviews', { decisions: decisions.slice(1) });
    expect(missing.status).toBe(409);
    expect(missing.body.error.id).toBe('review_outdated');
    expect(await databaseSnapshot(portaal)).toBe(before);
    expect(await dashboard(lid)).toBe(200);
  });

  it('withdraws a data role at confirmation: the data service refuses at once; the review is kept', async () => {
    const shown = await toDo();
    expect(shown.people.find((p) => p.userId === lidId)?.dataRoles).toEqual([
      { roleId: 'sociaal-domein', label: 'Sociaal domein' },
    ]);
    expect(await dashboard(lid)).toBe(200);
    const decisions = decisionsOf(shown, (userId, roleId) => userId === lidId && roleId === 'sociaal-domein');
    const finished = await api(portaal, bea.browser, 'POST', '/access-reviews', { decisions });
    expect(finished.status, JSON.stringify(finished.body)).toBe(201);
    expect(finished.body).toMatchObject({ withdrawn: 1, kept: decisions.length - 1, reviewedByEmail: BEA });
    expect(await dashboard(lid)).toBe(403);

    const response = await bea.browser.fetch(`${portaal.apiUrl}/api/access-reviews/${finished.body.id}.csv`);
    expect(response.status).toBe(200);
    const lines = (await response.text()).split('\r\n');
    expect(lines.filter((line) => line.includes(lid.email))).toEqual([
      expect.stringMatching(/;Rita Persoon;.*;Sociaal domein;.*;authenticator-app;ingetrokken$/),
    ]);

    const log = await api(portaal, bea.browser, 'GET', '/audit?action=access_review.complete');
    expect(log.body.entries[0].sentence).toBe('Bea Beheerder heeft een toegangsreview afgerond');
    const listed = await api(portaal, bea.browser, 'GET', '/access-reviews');
    expect(listed.body[0]).toMatchObject({ id: finished.body.id, withdrawn: 1 });
  });
});
