import type { RelationsDb } from './tuple-repository.js';
import { allTuples, tupleExists } from './tuple-repository.js';
import type { RelationTuple } from './tuple.js';

export const DEFAULT_MAX_DEPTH = 5;

/**
 * Relations that imply another, as this product's namespace rules would say in Keto's OPL: `access` on an
 * organisation or data role is granted by an `issuer` or an `access` tuple (docs/architecture.md#relation-tuples).
 */
const IMPLIED_BY: Record<string, Record<string, string[]>> = {
  organizations: { access: ['access', 'issuer'] },
  subdivisions: { access: ['access', 'issuer'] },
};

/**
 * Keto's check: true when the tuple exists, when an implying relation holds, or when a subject set on the object
 * leads to the subject within `maxDepth` steps.
 */
export async function checkTuple(
  db: RelationsDb,
  tuple: RelationTuple,
  maxDepth = DEFAULT_MAX_DEPTH,
): Promise<boolean> {
  if (maxDepth <= 0) return false;
  const relations = IMPLIED_BY[tuple.namespace]?.[tuple.relation] ?? [tuple.relation];
  for (const relation of relations) {
    if (await tupleExists(db, { ...tuple, relation })) return true;
  }
  for (const relation of relations) {
    const sets = await allTuples(db, { namespace: tuple.namespace, object: tuple.object, relation });
    for (const set of sets) {
      if (!set.subject_set) continue;
      const next = { ...set.subject_set, subject_id: tuple.subject_id, subject_set: tuple.subject_set };
      if (await checkTuple(db, next as RelationTuple, maxDepth - 1)) return true;
    }
  }
  return false;
}
