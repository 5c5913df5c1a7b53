import { type Kysely, sql } from 'kysely';
import type { PeopleImportRowsTable, PeopleImportsTable, UsersApiDatabase } from '../db/schema.js';
import type { ImportPlan, PlannedRow } from './import-plan.js';

export type ImportState = 'preview' | 'running' | 'done';

/** What was done with a row: as planned, or `failed` when its change could not be made (nothing of it written). */
export type ImportOutcome = 'created' | 'invited' | 'added' | 'unchanged' | 'refused' | 'failed';

export interface ImportJob {
  id: string;
  organisationId: string;
  createdById: string;
  createdByEmail: string;
  clientAddress: string;
  fileName: string;
  createdAt: string;
  state: ImportState;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface StoredRow extends PlannedRow {
  outcome: ImportOutcome | null;
  mailed: boolean;
}

export interface RowChange {
  outcome?: ImportOutcome;
  identityId?: string;
  reason?: string;
  mailed?: boolean;
}

/** Where a row's outcome is written: with the change it records, in `atomically` (ports.ts). */
export interface ImportRowPort {
  settle(importId: string, line: number, change: RowChange): Promise<void>;
}

export interface ImportProgress {
  total: number;
  /** Rows with an outcome. */
  done: number;
  outcomes: Record<ImportOutcome, number>;
  plans: Record<ImportPlan, number>;
}

export interface ImportStore extends ImportRowPort {
  create(job: ImportJob, rows: PlannedRow[]): Promise<void>;
  /** The import of this organisation; undefined for another's or none. */
  get(organisationId: string, id: string): Promise<ImportJob | undefined>;
  /** In the file's order; `pending`: only rows whose outcome or mail is still to come. */
  rows(id: string, options?: { pending?: boolean }): Promise<StoredRow[]>;
  progress(id: string): Promise<ImportProgress>;
  /** From preview to running; false when it was not a preview (started already, or done). */
  start(organisationId: string, id: string, at: string): Promise<boolean>;
  /** A running import whose lease has passed (or never was), now leased to `owner` until `until`. */
  claim(owner: string, now: number, until: number): Promise<ImportJob | undefined>;
  /** Extends the lease; false when another process has taken the import over. */
  renew(id: string, owner: string, until: number): Promise<boolean>;
  finish(id: string, owner: string, at: string): Promise<void>;
  /**
   * Removes, with their rows, the imports done before `doneBefore` and the previews never started that were made
   * before `previewsBefore` (AVG: a file of people is kept no longer than it serves); answers how many went.
   */
  prune(doneBefore: string, previewsBefore: string): Promise<number>;
  /** The rows of every import kept that named this address (AVG article 15). */
  rowsAbout(email: string): Promise<(StoredRow & { importId: string })[]>;
}

/** Rows per insert: twelve columns each, well under SQLite's and PostgreSQL's limits on parameters. */
const ROWS_PER_INSERT = 400;

const jobOf = (row: PeopleImportsTable): ImportJob => ({
  id: row.id,
  organisationId: row.organisation_id,
  createdById: row.created_by_id,
  createdByEmail: row.created_by_email,
  clientAddress: row.client_address,
  fileName: row.file_name,
  createdAt: row.created_at,
  state: row.state as ImportState,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
});

const rowOf = (row: PeopleImportRowsTable): StoredRow => ({
  line: Number(row.line),
  email: row.email,
  first: row.first_name,
  last: row.last_name,
  dataRoles: row.data_roles ? row.data_roles.split(',') : [],
  admin: Number(row.admin) === 1,
  plan: row.plan as ImportPlan,
  ...(row.reason ? { reason: row.reason } : {}),
  ...(row.identity_id ? { identityId: row.identity_id } : {}),
  outcome: row.outcome as ImportOutcome | null,
  mailed: Number(row.mailed) === 1,
});

const OUTCOMES: ImportOutcome[] = ['created', 'invited', 'added', 'unchanged', 'refused', 'failed'];
const PLANS: ImportPlan[] = ['create', 'invite', 'add', 'unchanged', 'refused'];

/** Imports on the Users API's database (0013_people_imports). */
export function createImportStore<DB>(db: Kysely<DB>): ImportStore {
  const typed = db as unknown as Kysely<UsersApiDatabase>;
  return {
    async settle(importId, line, change) {
      await typed
        .updateTable('people_import_rows')
        .set({
          ...(change.outcome ? { outcome: change.outcome } : {}),
          ...(change.identityId ? { identity_id: change.identityId } : {}),
          ...(change.reason ? { reason: change.reason } : {}),
          ...(change.mailed ? { mailed: 1 } : {}),
        })
        .where('import_id', '=', importId)
        .where('line', '=', line)
        .execute();
    },
    async create(job, rows) {
      await typed.transaction().execute(async (trx) => {
        await trx
          .insertInto('people_imports')
          .values({
            id: job.id,
            organisation_id: job.organisationId,
            created_by_id: job.createdById,
            created_by_email: job.createdByEmail,
            client_address: job.clientAddress,
            file_name: job.fileName,
            created_at: job.createdAt,
            state: job.state,
            started_at: null,
            finished_at: null,
            lease_owner: null,
            lease_until: null,
          })
          .execute();
        for (let from = 0; from < rows.length; from += ROWS_PER_INSERT) {
          const values = rows.slice(from, from + ROWS_PER_INSERT).map((row) => ({
            import_id: job.id,
            line: row.line,
            email: row.email.slice(0, 320),
            first_name: row.first.slice(0, 50),
            last_name: row.last.slice(0, 50),
            data_roles: row.dataRoles.join(','),
            admin: row.admin ? 1 : 0,
            plan: row.plan,
            reason: row.reason ?? null,
            outcome: null,
            identity_id: row.identityId ?? null,
            mailed: 0,
          }));
          await trx.insertInto('people_import_rows').values(values).execute();
        }
      });
    },
    async get(organisationId, id) {
      const row = await typed
        .selectFrom('people_imports')
        .selectAll()
        .where('organisation_id', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? jobOf(row) : undefined;
    },
    async rows(id, options = {}) {
      let query = typed.selectFrom('people_import_rows').selectAll().where('import_id', '=', id);
      if (options.pending)
        query = query.where((eb) =>
          eb.or([
            eb('outcome', 'is', null),
            eb.and([eb('outcome', 'in', ['created', 'invited']), eb('mailed', '=', 0)]),
          ]),
        );
      return (await query.orderBy('line').execute()).map(rowOf);
    },
    async progress(id) {
      const counted = await typed
        .selectFrom('people_import_rows')
        .select(['plan', 'outcome', sql<number>`count(*)`.as('n')])
        .where('import_id', '=', id)
        .groupBy(['plan', 'outcome'])
        .execute();
      const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<ImportOutcome, number>;
      const plans = Object.fromEntries(PLANS.map((p) => [p, 0])) as Record<ImportPlan, number>;
      let total = 0;
      let done = 0;
      for (const { plan, outcome, n } of counted) {
        const count = Number(n);
        total += count;
        plans[plan as ImportPlan] += count;
        if (outcome) {
          done += count;
          outcomes[outcome as ImportOutcome] += count;
        }
      }
      return { total, done, outcomes, plans };
    },
    async start(organisationId, id, at) {
      const result = await typed
        .updateTable('people_imports')
        .set({ state: 'running', started_at: at })
        .where('organisation_id', '=', organisationId)
        .where('id', '=', id)
        .where('state', '=', 'preview')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async claim(owner, now, until) {
      const candidates = await typed
        .selectFrom('people_imports')
        .select('id')
        .where('state', '=', 'running')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .orderBy('started_at')
        .execute();
      for (const { id } of candidates) {
        // Whoever changes the lease first has it: a second process finds the row changed and takes nothing.
        const taken = await typed
          .updateTable('people_imports')
          .set({ lease_owner: owner, lease_until: until })
          .where('id', '=', id)
          .where('state', '=', 'running')
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) !== 1) continue;
        const row = await typed.selectFrom('people_imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return jobOf(row);
      }
      return undefined;
    },
    async renew(id, owner, until) {
      const result = await typed
        .updateTable('people_imports')
        .set({ lease_until: until })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('state', '=', 'running')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async rowsAbout(email) {
      const rows = await typed
        .selectFrom('people_import_rows')
        .selectAll()
        .where('email', '=', email)
        .orderBy('import_id')
        .execute();
      return rows.map((row) => ({ ...rowOf(row), importId: row.import_id }));
    },
    async prune(doneBefore, previewsBefore) {
      return typed.transaction().execute(async (trx) => {
        const gone = await trx
          .selectFrom('people_imports')
          .select('id')
          .where((eb) =>
            eb.or([
              eb.and([eb('state', '=', 'done'), eb('finished_at', '<', doneBefore)]),
              eb.and([eb('state', '=', 'preview'), eb('created_at', '<', previewsBefore)]),
            ]),
          )
          .execute();
        const ids = gone.map((row) => row.id);
        if (ids.length === 0) return 0;
        await trx.deleteFrom('people_import_rows').where('import_id', 'in', ids).execute();
        await trx.deleteFrom('people_imports').where('id', 'in', ids).execute();
        return ids.length;
      });
    },
    async finish(id, owner, at) {
      await typed
        .updateTable('people_imports')
        .set({ state: 'done', finished_at: at, lease_owner: null, lease_until: null })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .execute();
    },
  };
}
