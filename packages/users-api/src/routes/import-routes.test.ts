import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createImportWorker } from '../imports/import-worker.js';
import type { UserIdentity } from '../ports.js';
import { type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';

// Importing people from a CSV file over the mounted Users API (Fastify inject, a migrated in-memory database): the
// preview with the new-user form's rules, the import in the background, a re-run that changes nothing, and a process
// that stops midway without a mail going twice.

let api: InProcessApi;
let admin: UserIdentity;
let anne: UserIdentity;

const member = (org: string, relation = 'issuer') => ({ namespace: 'organizations', object: org, relation });

beforeEach(async () => {
  api = await inProcessUsersApi();
  admin = await api.person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    member('voorbeeldstad'),
    member('voorbeeldstad', 'admin'),
  ]);
  anne = await api.person('anne@voorbeeldstad.nl', 'voorbeeldstad', [member('voorbeeldstad')]);
  await api.person('dirk@dijkstad.nl', 'dijkstad', [member('dijkstad')]);
});

afterEach(() => api.close());

const FILE = [
  'Voornaam;Achternaam;E-mailadres;Datarollen;Beheerder',
  'Noor;de Vries;noor@voorbeeldstad.nl;Sociaal domein, ruimte;nee',
  'Anne;Test;ANNE@voorbeeldstad.nl;Financiën;',
  'Dirk;Test;dirk@dijkstad.nl;;',
  'Geen;Adres;geen-adres;;',
  'Onbekend;Rol;rol@voorbeeldstad.nl;Toerisme;',
  'Noor;Nogmaals;noor@voorbeeldstad.nl;;',
  ';;naamloos@voorbeeldstad.nl;;',
  'Beheer;Twijfel;twijfel@voorbeeldstad.nl;;misschien',
].join('\r\n');

interface Row {
  line: number;
  email: string;
  plan: string;
  outcome: string | null;
  reason: string | null;
  dataRoles: string[];
}
interface Job {
  id: string;
  state: string;
  progress: { total: number; done: number; outcomes: Record<string, number>; plans: Record<string, number> };
  rows?: Row[];
}

const preview = async (csv = FILE) => {
  const answer = await api.call(admin, 'POST', '/api/imports', { fileName: 'personen.csv', csv });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json() as Job;
};

const runToEnd = async (id: string) => {
  const started = await api.call(admin, 'POST', `/api/imports/${id}/start`);
  expect(started.statusCode, started.body).toBe(202);
  await api.imports.idle();
  const job = (await api.call(admin, 'GET', `/api/imports/${id}`)).json() as Job;
  expect(job.state).toBe('done');
  return job;
};

const stored = (table: string) => api.stored().then((all) => all[table]!);
const mailsTo = async (address: string) =>
  ((await stored('courier_messages')) as string[]).filter((row) => JSON.parse(row).recipient === address).length;

describe('importing people', () => {
  it("plans every row with the form's rules and writes nothing but the import", async () => {
    const before = await api.stored();
    const shown = await preview();
    expect(shown.rows!.map(({ line, plan, reason, dataRoles }) => ({ line, plan, reason, dataRoles }))).toEqual([
      { line: 2, plan: 'create', reason: null, dataRoles: ['Sociaal domein', 'Ruimte en wonen'] },
      { line: 3, plan: 'add', reason: null, dataRoles: ['Financiën'] },
      { line: 4, plan: 'invite', reason: null, dataRoles: [] },
      {
        line: 5,
        plan: 'refused',
        reason: 'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.',
        dataRoles: [],
      },
      { line: 6, plan: 'refused', reason: "Datarol 'Toerisme' bestaat niet in Gemeente Voorbeeldstad.", dataRoles: [] },
      { line: 7, plan: 'refused', reason: 'Dit e-mailadres staat ook op regel 2.', dataRoles: [] },
      { line: 8, plan: 'refused', reason: 'Vul de naam in van de gebruiker (1 tot 50 tekens).', dataRoles: [] },
      { line: 9, plan: 'refused', reason: "Vul bij Beheerder 'ja' of 'nee' in, of niets.", dataRoles: [] },
    ]);
    expect(shown.progress.plans).toEqual({ create: 1, add: 1, invite: 1, unchanged: 0, refused: 5 });
    const after = await api.stored();
    for (const table of ['identities', 'relation_tuples', 'courier_messages', 'organisation_invitations'])
      expect(after[table], table).toEqual(before[table]);
  });

  it('carries the rows out in the background, one mail each; the same file again changes nothing', async () => {
    const { id } = await preview();
    const done = await runToEnd(id);
    expect(done.progress.outcomes).toMatchObject({ created: 1, added: 1, invited: 1, refused: 5, failed: 0 });
    const noor = await api.ctx.backend.identities.findByEmail('noor@voorbeeldstad.nl');
    expect(noor?.organisationRecord.home).toBe('voorbeeldstad');
    const roles = await api.ctx.backend.relations.list({ subject_id: noor!.id, namespace: 'subdivisions' });
    expect(roles.map((t) => t.object).sort()).toEqual(['ruimte_voorbeeldstad', 'sociaal-domein_voorbeeldstad']);
    const anneRoles = await api.ctx.backend.relations.list({ subject_id: anne.id, namespace: 'subdivisions' });
    expect(anneRoles.map((t) => t.object)).toEqual(['financien_voorbeeldstad']);
    expect(await mailsTo('noor@voorbeeldstad.nl')).toBe(1);
    expect(await mailsTo('dirk@dijkstad.nl')).toBe(1);
    expect(await mailsTo('anne@voorbeeldstad.nl')).toBe(0);
    // What a person's export (AVG article 15) finds of the file.
    expect((await api.ctx.imports.rowsAbout('noor@voorbeeldstad.nl')).map((row) => row.outcome)).toEqual([
      'created',
      'refused',
    ]);

    const before = await api.stored();
    const again = await preview();
    expect(again.progress.plans).toEqual({ create: 0, add: 0, invite: 0, unchanged: 3, refused: 5 });
    await runToEnd(again.id);
    const after = await api.stored();
    for (const table of ['identities', 'relation_tuples', 'courier_messages', 'organisation_invitations'])
      expect(after[table], table).toEqual(before[table]);

    const report = await api.call(admin, 'GET', `/api/imports/${id}/report.csv`);
    const lines = report.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('Regel;E-mailadres;Voornaam;Achternaam;Datarollen;Beheerder;Resultaat;Toelichting');
    expect(lines[1]).toBe(
      '2;noor@voorbeeldstad.nl;Noor;de Vries;Sociaal domein, Ruimte en wonen;nee;account aangemaakt en uitgenodigd;',
    );
  });

  it('goes on where a stopped process left off, and no mail goes twice', async () => {
    const people = Array.from({ length: 300 }, (_, i) => `Persoon;${i};p${i}@voorbeeldstad.nl;;`);
    const { id } = await preview(['Voornaam;Achternaam;E-mailadres;Datarollen;Beheerder', ...people].join('\n'));
    expect((await api.call(admin, 'POST', `/api/imports/${id}/start`)).statusCode).toBe(202);
    // The process stops once some rows are done: the row in hand is finished, the lease given up.
    for (;;) {
      const { progress } = (await api.call(admin, 'GET', `/api/imports/${id}`)).json() as Job;
      if (progress.done >= 20) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await api.imports.stop();
    const halfway = ((await api.call(admin, 'GET', `/api/imports/${id}`)).json() as Job).progress;
    expect(halfway.done).toBeLessThan(300);

    // One row made its account but stopped before its mail: the mark says so.
    const created = await sql<{ line: number }>`
      select line from people_import_rows where import_id = ${id} and outcome = 'created' order by line limit 1
    `.execute(api.db.kysely);
    const first = created.rows[0];
    await sql`update people_import_rows set mailed = 0 where import_id = ${id} and line = ${first!.line}`.execute(
      api.db.kysely,
    );
    await sql`delete from courier_messages where recipient = ${`p${first!.line - 2}@voorbeeldstad.nl`}`.execute(
      api.db.kysely,
    );

    const restarted = createImportWorker(api.ctx, api.app.log);
    restarted.start();
    for (;;) {
      await restarted.idle();
      const job = (await api.call(admin, 'GET', `/api/imports/${id}`)).json() as Job;
      if (job.state === 'done') break;
      restarted.kick();
    }
    await restarted.stop();
    const mails = ((await stored('courier_messages')) as string[]).map((row) => JSON.parse(row).recipient);
    expect(mails.length).toBe(300);
    expect(new Set(mails).size).toBe(300);
    expect((await stored('identities')).length).toBe(3 + 300);
  });

  it('refuses a member, another organisation and a file it cannot read, and a second start', async () => {
    expect((await api.call(anne, 'POST', '/api/imports', { csv: FILE })).statusCode).toBe(403);
    const empty = await api.call(admin, 'POST', '/api/imports', { csv: 'Naam;Adres\r\nx;y' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toMatch(/^De eerste regel noemt geen kolom 'E-mailadres'/);
    const tooMany = ['E-mailadres', ...Array.from({ length: 5_001 }, (_, i) => `p${i}@voorbeeldstad.nl`)].join('\n');
    expect((await api.call(admin, 'POST', '/api/imports', { csv: tooMany })).json().error.message).toBe(
      'Het bestand bevat 5001 personen; importeer er hoogstens 5.000 tegelijk.',
    );
    const { id } = await preview();
    const dego = await api.person('beheer@dego.nl', 'dego', [member('dego'), member('dego', 'admin')]);
    expect((await api.call(dego, 'GET', `/api/imports/${id}`)).statusCode).toBe(404);
    expect((await api.call(dego, 'POST', `/api/imports/${id}/start`)).statusCode).toBe(404);
    await runToEnd(id);
    const second = await api.call(admin, 'POST', `/api/imports/${id}/start`);
    expect(second.statusCode).toBe(409);
  });

  it('forgets a preview never started after a day, and a done import with its rows after the retention', async () => {
    const done = await preview();
    await runToEnd(done.id);
    const waiting = await preview();
    const rowsOf = async (id: string) => (await api.call(admin, 'GET', `/api/imports/${id}/rows`)).json() as Row[];
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 60_000).toISOString();
    // Cut-offs before both: nothing goes.
    expect(await api.ctx.imports.prune('2000-01-01T00:00:00.000Z', '2000-01-01T00:00:00.000Z')).toBe(0);
    // A preview older than its cut-off goes; the done import stays until its own.
    expect(await api.ctx.imports.prune('2000-01-01T00:00:00.000Z', later)).toBe(1);
    expect((await api.call(admin, 'GET', `/api/imports/${waiting.id}`)).statusCode).toBe(404);
    expect(await rowsOf(done.id)).toHaveLength(8);
    expect(await api.ctx.imports.prune(later, now)).toBe(1);
    expect((await api.call(admin, 'GET', `/api/imports/${done.id}`)).statusCode).toBe(404);
    expect((await stored('people_import_rows')).length).toBe(0);
  });
});
