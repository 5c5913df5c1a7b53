import type { DatabaseDialect, DbExecutor } from '@portaal/idp';
import { sql } from 'kysely';
import type { IdentityState, MemberKey, MemberStatus } from '../ports.js';
import { readOrganisationRecord } from '../users/organisation-record.js';
import { FACTOR_TYPES } from '../users/second-factor.js';
import { amongIds } from '../db/among-ids.js';

/** The people mark: a counter raised by triggers with every change to people (db/migrations/0008_people_changes.ts). */
export async function peopleMark(db: DbExecutor): Promise<string> {
  const { rows } = await sql<{ n: string | number }>`select n from people_changes where id = 1`.execute(db);
  return String(rows[0]?.n);
}

/**
 * Whom the changes after mark `from` up to mark `to` were about (db/migrations/0010_people_change_log.ts), or
 * undefined when that cannot be told: the log no longer reaches back to `from`, or a change may concern anyone.
 */
export async function peopleChangedSince(db: DbExecutor, from: string, to: string): Promise<string[] | undefined> {
  if (BigInt(to) <= BigInt(from)) return BigInt(to) === BigInt(from) ? [] : undefined;
  const { rows } = await sql<{ seq: string | number; subject_id: string }>`
    select seq, subject_id from people_change_log where seq > ${from} and seq <= ${to} order by seq`.execute(db);
  if (rows.length === 0 || BigInt(rows[0]!.seq) !== BigInt(from) + 1n) return undefined;
  const subjects = new Set<string>();
  for (const row of rows) {
    if (row.subject_id === '*') return undefined;
    subjects.add(row.subject_id);
  }
  return [...subjects];
}

/**
 * An organisation's members as the overview sorts and searches them, in one statement: their membership and
 * administrator tuples grouped per person, joined to the identities for names, address and creation time only; of
 * only the people `among`, when given.
 */
export async function membersOf(
  dialect: DatabaseDialect,
  db: DbExecutor,
  organisationId: string,
  among?: string[],
): Promise<MemberKey[]> {
  const only = among ? sql`and ${amongIds(dialect, 'subject_id', among)}` : sql``;
  const { rows } = await sql<{ id: string; traits: string; created_at: string; admin: number }>`
    select i.id, i.traits, i.created_at, m.admin
    from (
      select subject_id,
        max(case when relation = 'admin' then 1 else 0 end) as admin,
        max(case when relation in ('issuer', 'access') then 1 else 0 end) as member,
        min(id) as first_tuple
      from relation_tuples
      where namespace = 'organizations' and object = ${organisationId} and subject_set_namespace = '' ${only}
      group by subject_id
    ) m
    join identities i on i.id = m.subject_id
    where m.member = 1
    order by m.first_tuple`.execute(db);
  return rows.map((row) => {
    const traits = JSON.parse(row.traits) as { email: string; name?: { first?: string; last?: string } };
    return {
      id: row.id,
      traits: { email: traits.email, name: { first: traits.name?.first ?? '', last: traits.name?.last ?? '' } },
      created_at: row.created_at,
      admin: Number(row.admin) === 1,
    };
  });
}

/**
 * The members' state, organisation record and whether they have any kind of factor, in one statement; of only the
 * people `among`, when given.
 */
export async function statusesOf(
  dialect: DatabaseDialect,
  db: DbExecutor,
  organisationId: string,
  among?: string[],
): Promise<Map<string, MemberStatus>> {
  const only = among ? sql`and ${amongIds(dialect, 'subject_id', among)}` : sql``;
  const { rows } = await sql<{
    id: string;
    state: IdentityState;
    metadata_admin: string | null;
    any_factor: number | boolean;
  }>`
    select i.id, i.state, i.metadata_admin,
      exists (
        select 1 from identity_credentials c where c.identity_id = i.id and c.type in (${sql.join(FACTOR_TYPES)})
      ) as any_factor
    from (
      select distinct subject_id from relation_tuples
      where namespace = 'organizations' and object = ${organisationId} and subject_set_namespace = ''
        and relation in ('issuer', 'access') ${only}
    ) m
    join identities i on i.id = m.subject_id`.execute(db);
  const statuses = new Map<string, MemberStatus>();
  for (const row of rows) {
    statuses.set(row.id, {
      state: row.state,
      organisationRecord: readOrganisationRecord(row.metadata_admin ? JSON.parse(row.metadata_admin) : null),
      // SQLite answers 1 or 0, PostgreSQL true or false.
      anyFactor: Number(row.any_factor) === 1,
    });
  }
  return statuses;
}
