import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, errors } from '../api-error.js';
import type { AuditEntry } from '../audit/audit-log.js';
import type { Organisation } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import { ConflictError, type UserIdentity } from '../ports.js';
import { joinInvitationMail, newAccountMail, relationNames as namesOf } from '../users/invitation-mails.js';
import { relationsAsked, replanRow } from './import-plan.js';
import type { ImportJob, StoredRow } from './import-store.js';

/** How long a process holds an import it works on; another takes it over once that has passed without a renewal. */
const LEASE_MS = 30_000;
/** How often the lease is renewed while rows are worked on, and how often stalled imports are looked for. */
const RENEW_MS = 10_000;
const LOOK_FOR_STALLED_MS = 15_000;
/**
 * Rows worked on at once: each is its own people (an address twice in a file is refused), and on PostgreSQL their
 * round trips overlap (5,000 rows took 53 s one at a time, bench/README.md#import); SQLite's writes queue anyway.
 */
const ROWS_AT_ONCE = 4;

const FAILED = 'Deze regel kon niet worden verwerkt. Probeer hem later opnieuw in een nieuw bestand.';

/** The audit entry of a row's change, made by whoever started the import, from where they started it. */
const entryOf = (
  job: ImportJob,
  action: string,
  about: { id: string; email: string } | null,
  details: Record<string, unknown>,
): AuditEntry => ({
  organisationId: job.organisationId,
  actorId: job.createdById,
  actorEmail: job.createdByEmail,
  clientAddress: job.clientAddress,
  action,
  objectId: about?.id ?? null,
  objectEmail: about?.email ?? null,
  result: 'success',
  details: { ...details, import: job.id },
});

const relationNames = (org: Organisation, row: StoredRow) => namesOf(relationsAsked(org, row));

/**
 * Carries out the imports that were started, one row at a time, in the background of a process that serves the
 * Users API (docs/architecture.md#importing-people). Each row's outcome is written in the `atomically` that makes
 * its change, and the mail of a new account (which follows the account's commit, as in the new-user form) in one
 * with the mark that it was queued: a process that stops midway leaves every row done or untouched and no mail
 * queued twice, and whichever process finds the import's lease passed goes on from there.
 */
export function createImportWorker(ctx: ApiContext, log: FastifyBaseLogger) {
  const owner = randomUUID();
  let working: Promise<void> | undefined;
  let again = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  async function mailNewAccount(job: ImportJob, org: Organisation, row: StoredRow, user: Pick<UserIdentity, 'id'>) {
    const url = await ctx.backend.identities.recoveryLink(user.id, ctx.options.invitationMs);
    await ctx.backend.atomically(async (ports) => {
      await ports.mail.send(newAccountMail(ctx, { email: row.email, firstName: row.first }, url, org.label));
      await ports.importRows.settle(job.id, row.line, { mailed: true });
    });
  }

  async function create(job: ImportJob, org: Organisation, row: StoredRow) {
    const { backend } = ctx;
    await ctx.mailThrottle.takeForImport(row.email, org.id);
    const details = { relations: relationNames(org, row) };
    const user = await backend.atomically(async (ports) => {
      const record = { home: org.id, joined: { [org.id]: new Date().toISOString() } };
      const made = await ports.identities.create(
        { email: row.email, name: { first: row.first, last: row.last } },
        record,
      );
      try {
        await ports.relations.patch({ insert: relationsAsked(org, row).map((t) => ({ ...t, subject_id: made.id })) });
      } catch (error) {
        if (backend.compensates) await ports.identities.delete(made.id);
        throw error;
      }
      await ports.audit.record(entryOf(job, 'user.create', { id: made.id, email: row.email }, details));
      await ports.importRows.settle(job.id, row.line, { outcome: 'created', identityId: made.id });
      return made;
    });
    await mailNewAccount(job, org, row, user);
  }

  async function invite(job: ImportJob, org: Organisation, row: StoredRow, identityId: string) {
    await ctx.mailThrottle.takeForImport(row.email, org.id);
    const relations = relationsAsked(org, row);
    // The invitation row is the Users API's own and writes on its own (as in the new-user form); a process that
    // stops before the mail replaces it with the same next time.
    await ctx.invitations.replace({
      organisationId: org.id,
      identityId,
      email: row.email,
      relations,
      invitedById: job.createdById,
      invitedByEmail: job.createdByEmail,
      expiresAt: new Date(Date.now() + ctx.options.invitationMs).toISOString(),
    });
    const [person] = await ctx.backend.identities.get([identityId]);
    const details = { relations: relationNames(org, row) };
    await ctx.backend.atomically(async (ports) => {
      await ports.mail.send(
        joinInvitationMail(ctx, { email: row.email, firstName: person?.traits.name.first }, org.label),
      );
      await ports.audit.record(entryOf(job, 'invitation.send', { id: identityId, email: row.email }, details));
      await ports.importRows.settle(job.id, row.line, { outcome: 'invited', identityId, mailed: true });
    });
  }

  async function add(job: ImportJob, org: Organisation, row: StoredRow, identityId: string) {
    const tuples = relationsAsked(org, row).map((t) => ({ ...t, subject_id: identityId }));
    const details = { relations: relationNames(org, row) };
    await ctx.backend.atomically(async (ports) => {
      // Inserting a tuple held already changes nothing (the tuple store and Keto both keep one of each).
      await ports.relations.patch({ insert: tuples });
      await ports.audit.record(entryOf(job, 'user.add_to_organisation', { id: identityId, email: row.email }, details));
      await ports.importRows.settle(job.id, row.line, { outcome: 'added', identityId });
    });
  }

  async function carryOut(job: ImportJob, org: Organisation, row: StoredRow) {
    if (row.outcome === 'created' && row.identityId) return mailNewAccount(job, org, row, { id: row.identityId });
    const now = await replanRow(ctx, org, row);
    try {
      if (now.plan === 'create') return await create(job, org, row);
      if (now.plan === 'invite') return await invite(job, org, row, now.identityId!);
      if (now.plan === 'add') return await add(job, org, row, now.identityId!);
      const outcome = now.plan === 'refused' ? 'refused' : 'unchanged';
      return await ctx.imports.settle(job.id, row.line, { outcome, ...(now.reason ? { reason: now.reason } : {}) });
    } catch (error) {
      // A refusal of the row itself (a mail limit, an address taken meanwhile) is its outcome; anything else too,
      // once logged, so that one row cannot stop the rest. Nothing of the row was written (one `atomically`).
      const refusal =
        error instanceof ApiError ? error : error instanceof ConflictError ? errors.emailInUse() : undefined;
      if (!refusal) log.error({ err: error, importId: job.id, line: row.line }, 'import row failed');
      await ctx.imports.settle(job.id, row.line, {
        outcome: refusal ? 'refused' : 'failed',
        reason: refusal?.message ?? FAILED,
      });
    }
  }

  async function workOn(job: ImportJob) {
    const org = (await ctx.catalogue.current()).organisations.find((o) => o.id === job.organisationId);
    let renewAt = Date.now() + RENEW_MS;
    const pending = await ctx.imports.rows(job.id, { pending: true });
    for (let from = 0; from < pending.length; from += ROWS_AT_ONCE) {
      // Stopping: the lease is given up, so that the next process to look takes the import over at once.
      if (stopping) return void (await ctx.imports.renew(job.id, owner, 0));
      if (Date.now() >= renewAt) {
        if (!(await ctx.imports.renew(job.id, owner, Date.now() + LEASE_MS))) return;
        renewAt = Date.now() + RENEW_MS;
      }
      await Promise.all(
        pending
          .slice(from, from + ROWS_AT_ONCE)
          .map((row) =>
            org ? carryOut(job, org, row) : ctx.imports.settle(job.id, row.line, { outcome: 'failed', reason: FAILED }),
          ),
      );
      // SQLite answers synchronously: without a turn of the event loop between rows, requests would wait for the
      // whole import.
      await nextTurn();
    }
    const { outcomes } = await ctx.imports.progress(job.id);
    await ctx.imports.finish(job.id, owner, new Date().toISOString());
    await ctx.audit.record(entryOf(job, 'import.complete', null, outcomes));
  }

  async function drain() {
    do {
      again = false;
      for (;;) {
        const now = Date.now();
        const job = stopping ? undefined : await ctx.imports.claim(owner, now, now + LEASE_MS);
        if (!job) break;
        await workOn(job);
      }
    } while (again && !stopping);
  }

  /** Looks for started imports that no process works on, and works on them. */
  function kick() {
    if (stopping) return;
    if (working) {
      again = true;
      return;
    }
    working = drain()
      .catch((error: unknown) => log.error({ err: error }, 'imports stopped; another look follows'))
      .finally(() => {
        working = undefined;
      });
  }

  return {
    kick,
    /** Until it looks for work now and then: imports a stopped process left are taken over. */
    start() {
      kick();
      timer = setInterval(kick, LOOK_FOR_STALLED_MS);
      timer.unref();
    },
    /** Stops after the row in hand; the import's lease passes and another process (or this one restarted) goes on. */
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      await working;
    },
    /** Resolves once nothing is being worked on (tests). */
    idle: async () => {
      while (working) await working;
    },
  };
}

export type ImportWorker = ReturnType<typeof createImportWorker>;
