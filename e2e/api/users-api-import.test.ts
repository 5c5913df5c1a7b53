import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { DEMO_PASSWORD, api, databaseSnapshot, signInAtAal2, type Person } from '../support/portal-users.js';

// Importing people from a CSV file on a running portaal: SQLite, PostgreSQL, and the Ory adapter
// (scripts/integration.mjs). A preview writes no person; the import makes each, with one invitation mail; the same
// file again changes nothing.

const BEA = 'beheerder@voorbeeldstad.nl';
const RUN = randomUUID().slice(0, 6);
const address = (i: number) => `imp-${RUN}-${i}@voorbeeldstad.nl`;
const FILE = [
  'Voornaam;Achternaam;E-mailadres;Datarollen;Beheerder',
  `Ina;Import;${address(1)};Sociaal domein;nee`,
  `Iris;Import;${address(2)};;ja`,
  'Fout;Adres;geen-adres;;',
].join('\r\n');

interface Job {
  id: string;
  state: string;
  progress: { done: number; total: number; plans: Record<string, number>; outcomes: Record<string, number> };
}

let portaal: Deployment;
let bea: Person;

beforeAll(async () => {
  portaal = await startDeployment({ args: ['--demo'] });
  bea = await signInAtAal2(portaal, BEA, DEMO_PASSWORD);
});
afterAll(async () => {
  await portaal?.stop();
});

async function imported(csv: string): Promise<Job> {
  const preview = await api<Job>(portaal, bea.browser, 'POST', '/imports', { fileName: 'import.csv', csv });
  expect(preview.status, JSON.stringify(preview.body)).toBe(201);
  return preview.body;
}

async function runToEnd(id: string): Promise<Job> {
  expect((await api(portaal, bea.browser, 'POST', `/imports/${id}/start`)).status).toBe(202);
  for (let waited = 0; waited < 30_000; waited += 200) {
    const job = await api<Job>(portaal, bea.browser, 'GET', `/imports/${id}`);
    if (job.body.state === 'done') return job.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the import did not end within 30 s');
}

describe('importing people', () => {
  it('previews without writing a person, imports with one mail each, and the same file changes nothing', async () => {
    const before = await databaseSnapshot(portaal);
    const preview = await imported(FILE);
    expect(preview.progress.plans).toEqual({ create: 2, invite: 0, add: 0, unchanged: 0, refused: 1 });
    expect(await databaseSnapshot(portaal)).toBe(before);

    const done = await runToEnd(preview.id);
    expect(done.progress.outcomes).toMatchObject({ created: 2, refused: 1, failed: 0 });
    const mail = await portaal.mail.waitFor(address(1));
    expect(mail.text).toContain('Gemeente Voorbeeldstad');
    const listed = await api(portaal, bea.browser, 'GET', `/users?email=${encodeURIComponent(address(2))}`);
    expect(listed.body[0].userType.id).toBe('administrator');

    const after = await databaseSnapshot(portaal);
    const again = await imported(FILE);
    expect(again.progress.plans).toEqual({ create: 0, invite: 0, add: 0, unchanged: 2, refused: 1 });
    await runToEnd(again.id);
    expect(await databaseSnapshot(portaal)).toBe(after);
    // The courier sends within a second of a mail being queued: a second mail would be here by now.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(portaal.mail.to(address(1))).toHaveLength(1);
  });
});
