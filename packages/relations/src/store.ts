import type { Kysely } from 'kysely';
import type { RelationsDatabase } from './db/schema.js';
import { allTuples, deleteTuples, insertTuple } from './tuples/tuple-repository.js';
import { checkTuple } from './tuples/check.js';
import type { RelationTuple, TupleQuery } from './tuples/tuple.js';

/** The relation store as the Users API uses it in-process; `inTransaction` lets a caller join its own transaction. */
export interface RelationStore {
  list(query: TupleQuery): Promise<RelationTuple[]>;
  check(tuple: RelationTuple): Promise<boolean>;
  /** Inserts and deletes as one transaction (Keto's PATCH). */
  patch(changes: { insert?: RelationTuple[]; delete?: TupleQuery[] }): Promise<void>;
  /** The same store working inside a transaction that the caller opened on the shared database. */
  // biome-ignore lint/suspicious/noExplicitAny: the caller's transaction spans every package's tables
  within(trx: Kysely<any>): RelationStore;
}

// biome-ignore lint/suspicious/noExplicitAny: the shared database holds every package's tables; this store sees its own
export function createRelationStore(db: Kysely<any>, inTransaction = false): RelationStore {
  const typed = db as Kysely<RelationsDatabase>;
  const apply = async (
    trx: Kysely<RelationsDatabase>,
    changes: { insert?: RelationTuple[]; delete?: TupleQuery[] },
  ) => {
    for (const query of changes.delete ?? []) await deleteTuples(trx, query);
    for (const tuple of changes.insert ?? []) await insertTuple(trx, tuple);
  };
  return {
    list: (query) => allTuples(typed, query),
    check: (tuple) => checkTuple(typed, tuple),
    async patch(changes) {
      if (inTransaction) return apply(typed, changes);
      await typed.transaction().execute((trx) => apply(trx, changes));
    },
    within: (trx) => createRelationStore(trx, true),
  };
}
