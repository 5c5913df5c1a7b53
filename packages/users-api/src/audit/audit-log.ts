import { type Kysely, sql } from 'kysely';
import { v7 as timeOrderedId } from 'uuid';
import { allColumns, fixedInsert, runFixed } from '@portaal/idp';
import type { AuditLogTable, UsersApiDatabase } from '../db/schema.js';

export interface AuditEntry {
  organisationId?: string | null;
  actorId?: string | null;
  actorEmail?: string | null;
  action: string;
  objectId?: string | null;
  objectEmail?: string | null;
  result: 'success' | 'denied' | 'failure' | 'locked';
  clientAddress?: string | null;
  /** Never a secret: no passwords, codes, tokens or links. */
  details?: Record<string, unknown>;
}

export interface AuditRecord extends Required<Omit<AuditEntry, 'details'>> {
  id: string;
  at: string;
  details: Record<string, unknown> | null;
}

/** What 'Logboek' narrows an organisation's entries to; every field optional. */
export interface AuditFilter {
  /** Part of the address of who acted or whom it was about, in any case. */
  person?: string;
  action?: string;
  /** From this moment on (ISO 8601), and before `until`. */
  from?: string;
  until?: string;
}

export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  /** Newest first; `before` is the time and id of the last entry of the previous page. */
  list(
    organisationId: string,
    page: { size: number; before?: { at: string; id: string } },
    filter?: AuditFilter,
  ): Promise<AuditRecord[]>;
  all(): AsyncGenerator<AuditRecord>;
  /** The entries in which a person acted or was acted on, oldest first (AVG article 15). */
  about(identityId: string): Promise<AuditRecord[]>;
  /** Removes the entries older than `cutoff` (AUDIT_RETENTION); answers how many went. */
  pruneBefore(cutoff: Date): Promise<number>;
}

// Every sign-in writes an entry: a fixed statement (docs/architecture.md#fixed-statements-on-the-hot-paths).
const INSERT_ENTRY = fixedInsert<AuditLogTable>(
  'portaal_insert_audit_entry',
  'audit_log',
  allColumns<AuditLogTable>()([
    'id',
    'at',
    'organisation_id',
    'actor_id',
    'actor_email',
    'action',
    'object_id',
    'object_email',
    'result',
    'client_address',
    'details',
  ]),
);

export function createAuditLog<DB>(db: Kysely<DB>, now: () => Date = () => new Date()): AuditLog {
  const typed = db as unknown as Kysely<UsersApiDatabase>;
  const toRecord = (row: UsersApiDatabase['audit_log']): AuditRecord => ({
    id: row.id,
    at: row.at,
    organisationId: row.organisation_id,
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    action: row.action,
    objectId: row.object_id,
    objectEmail: row.object_email,
    result: row.result as AuditRecord['result'],
    clientAddress: row.client_address,
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
  });
  return {
    async record(entry) {
      const row: AuditLogTable = {
        // Entries of one millisecond keep the order they were written in: the id breaks ties in `at`, and a
        // version 7 UUID grows with every call within a process.
        id: timeOrderedId(),
        at: now().toISOString(),
        organisation_id: entry.organisationId ?? null,
        actor_id: entry.actorId ?? null,
        actor_email: entry.actorEmail ?? null,
        action: entry.action,
        object_id: entry.objectId ?? null,
        object_email: entry.objectEmail ?? null,
        result: entry.result,
        client_address: entry.clientAddress ?? null,
        details: entry.details ? JSON.stringify(entry.details) : null,
      };
      await runFixed(db, INSERT_ENTRY.statement, INSERT_ENTRY.values(row));
    },
    async list(organisationId, page, filter = {}) {
      let select = typed.selectFrom('audit_log').selectAll().where('organisation_id', '=', organisationId);
      if (filter.action) select = select.where('action', '=', filter.action);
      if (filter.from) select = select.where('at', '>=', filter.from);
      if (filter.until) select = select.where('at', '<', filter.until);
      if (filter.person) {
        const pattern = `%${filter.person.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        select = select.where((eb) =>
          eb.or([
            eb(sql<string>`lower(actor_email)`, 'like', sql<string>`${pattern} escape '\\'`),
            eb(sql<string>`lower(object_email)`, 'like', sql<string>`${pattern} escape '\\'`),
          ]),
        );
      }
      if (page.before) {
        const { at, id } = page.before;
        select = select.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
      }
      const rows = await select.orderBy('at', 'desc').orderBy('id', 'desc').limit(page.size).execute();
      return rows.map(toRecord);
    },
    async about(identityId) {
      const rows = await typed
        .selectFrom('audit_log')
        .selectAll()
        .where((eb) => eb.or([eb('actor_id', '=', identityId), eb('object_id', '=', identityId)]))
        .orderBy('at')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },
    async pruneBefore(cutoff) {
      const result = await typed.deleteFrom('audit_log').where('at', '<', cutoff.toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async *all() {
      let last: { at: string; id: string } | undefined;
      for (;;) {
        let select = typed.selectFrom('audit_log').selectAll();
        if (last) {
          const { at, id } = last;
          select = select.where((eb) => eb.or([eb('at', '>', at), eb.and([eb('at', '=', at), eb('id', '>', id)])]));
        }
        const rows = await select.orderBy('at').orderBy('id').limit(500).execute();
        for (const row of rows) yield toRecord(row);
        if (rows.length < 500) return;
        last = { at: rows[rows.length - 1]!.at, id: rows[rows.length - 1]!.id };
      }
    },
  };
}
