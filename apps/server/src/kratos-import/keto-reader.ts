import type pg from 'pg';

/** A Keto relation tuple with its strings, as Keto's `keto_uuid_mappings` give them back. */
export interface KetoTuple {
  namespace: string;
  object: string;
  relation: string;
  /** The subject's string; null for a subject set (which the portal does not use). */
  subjectId: string | null;
  subjectSet: string | null;
}

/**
 * Every tuple of Keto's network (v0.9 on: objects and subjects stored as UUIDs mapped to their strings), oldest
 * first. A string whose mapping is missing reads as its UUID.
 */
export async function readTuples(client: pg.Client, nid: string): Promise<KetoTuple[]> {
  const { rows } = await client.query(
    `SELECT t.namespace, COALESCE(o.string_representation, t.object::text) AS object, t.relation,
            CASE WHEN t.subject_id IS NULL THEN NULL
                 ELSE COALESCE(s.string_representation, t.subject_id::text) END AS subject_id,
            CASE WHEN t.subject_set_namespace IS NULL THEN NULL
                 ELSE t.subject_set_namespace || ':' || COALESCE(so.string_representation, t.subject_set_object::text)
                      || '#' || t.subject_set_relation END AS subject_set
       FROM keto_relation_tuples t
       LEFT JOIN keto_uuid_mappings o ON o.id = t.object
       LEFT JOIN keto_uuid_mappings s ON s.id = t.subject_id
       LEFT JOIN keto_uuid_mappings so ON so.id = t.subject_set_object
      WHERE t.nid = $1 ORDER BY t.commit_time, t.shard_id`,
    [nid],
  );
  return rows.map((row) => ({
    namespace: row.namespace,
    object: row.object,
    relation: row.relation,
    subjectId: row.subject_id,
    subjectSet: row.subject_set,
  }));
}
