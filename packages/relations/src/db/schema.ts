export interface RelationTuplesTable {
  id: string;
  namespace: string;
  object: string;
  relation: string;
  /** '' when the subject is a subject set, so that one unique index covers both kinds. */
  subject_id: string;
  subject_set_namespace: string;
  subject_set_object: string;
  subject_set_relation: string;
  created_at: string;
}

export interface RelationsDatabase {
  relation_tuples: RelationTuplesTable;
}
