import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { RelationsDatabase, RelationTuplesTable } from '../db/schema.js';
import type { RelationTuple, TupleQuery } from './tuple.js';

export type RelationsDb = Kysely<RelationsDatabase>;

const subjectColumns = (tuple: RelationTuple | TupleQuery) => ({
  subject_id: tuple.subject_set ? '' : (tuple.subject_id ?? ''),
  subject_set_namespace: tuple.subject_set?.namespace ?? '',
  subject_set_object: tuple.subject_set?.object ?? '',
  subject_set_relation: tuple.subject_set?.relation ?? '',
});

const fromRow = (row: RelationTuplesTable): RelationTuple => ({
  namespace: row.namespace,
  object: row.object,
  relation: row.relation,
  ...(row.subject_set_namespace
    ? {
        subject_set: {
          namespace: row.subject_set_namespace,
          object: row.subject_set_object,
          relation: row.subject_set_relation,
        },
      }
    : { subject_id: row.subject_id }),
});

/** Inserts a tuple unless it exists already (Keto's PUT is idempotent). */
export async function insertTuple(db: RelationsDb, tuple: RelationTuple, now = new Date()): Promise<void> {
  await db
    .insertInto('relation_tuples')
    .values({
      id: randomUUID(),
      namespace: tuple.namespace,
      object: tuple.object,
      relation: tuple.relation,
      ...subjectColumns(tuple),
      created_at: now.toISOString(),
    })
    .onConflict((oc) =>
      oc
        .columns([
          'namespace',
          'object',
          'relation',
          'subject_id',
          'subject_set_namespace',
          'subject_set_object',
          'subject_set_relation',
        ])
        .doNothing(),
    )
    .execute();
}

function filtered(db: RelationsDb, query: TupleQuery) {
  let select = db.selectFrom('relation_tuples');
  if (query.namespace !== undefined) select = select.where('namespace', '=', query.namespace);
  if (query.object !== undefined) select = select.where('object', '=', query.object);
  if (query.relation !== undefined) select = select.where('relation', '=', query.relation);
  if (query.subject_id !== undefined)
    select = select.where('subject_id', '=', query.subject_id).where('subject_set_namespace', '=', '');
  if (query.subject_set) {
    select = select
      .where('subject_set_namespace', '=', query.subject_set.namespace)
      .where('subject_set_object', '=', query.subject_set.object)
      .where('subject_set_relation', '=', query.subject_set.relation);
  }
  return select;
}

/** Deletes every tuple that matches; returns how many. */
export async function deleteTuples(db: RelationsDb, query: TupleQuery): Promise<number> {
  const result = await db
    .deleteFrom('relation_tuples')
    .where('id', 'in', filtered(db, query).select('id'))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** One page of matching tuples in a stable order, and the id to continue after (undefined on the last page). */
export async function listTuples(
  db: RelationsDb,
  query: TupleQuery,
  page: { size: number; after?: string },
): Promise<{ tuples: RelationTuple[]; last?: string }> {
  let select = filtered(db, query)
    .selectAll()
    .orderBy('id')
    .limit(page.size + 1);
  if (page.after) select = select.where('id', '>', page.after);
  const rows = await select.execute();
  const shown = rows.slice(0, page.size);
  return { tuples: shown.map(fromRow), last: rows.length > page.size ? shown[shown.length - 1]?.id : undefined };
}

/** Every matching tuple, unpaged: for callers inside the product that know their result is small. */
export async function allTuples(db: RelationsDb, query: TupleQuery): Promise<RelationTuple[]> {
  return (await filtered(db, query).selectAll().orderBy('id').execute()).map(fromRow);
}

export async function tupleExists(db: RelationsDb, tuple: RelationTuple): Promise<boolean> {
  const row = await filtered(db, tuple).select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}
