import { badRequest } from '../http/keto-error.js';

export interface SubjectSet {
  namespace: string;
  object: string;
  relation: string;
}

/** A Keto relation tuple: exactly one of `subject_id` and `subject_set`. */
export interface RelationTuple {
  namespace: string;
  object: string;
  relation: string;
  subject_id?: string;
  subject_set?: SubjectSet;
}

/** A query: every part optional (namespace is required only where Keto says so). */
export interface TupleQuery {
  namespace?: string;
  object?: string;
  relation?: string;
  subject_id?: string;
  subject_set?: SubjectSet;
}

const MAX_PART = 255;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function checkLength(...parts: (string | undefined)[]) {
  if (parts.some((p) => p !== undefined && p.length > MAX_PART))
    throw badRequest('a tuple part is longer than 255 characters');
}

/** Reads a subject from a JSON body or from query parameters (`subject_set.namespace` and friends). */
function subjectOf(source: Record<string, unknown>): { subject_id?: string; subject_set?: SubjectSet } {
  if ('subject' in source)
    throw badRequest('the "subject" key is no longer supported, use "subject_id" or "subject_set"');
  const id = text(source.subject_id);
  const nested =
    source.subject_set && typeof source.subject_set === 'object'
      ? (source.subject_set as Record<string, unknown>)
      : undefined;
  const set = {
    namespace: text(nested?.namespace ?? source['subject_set.namespace']),
    object: text(nested?.object ?? source['subject_set.object']),
    relation: text(nested?.relation ?? source['subject_set.relation']),
  };
  const setParts = [set.namespace, set.object, set.relation].filter((p) => p !== undefined).length;
  if (id !== undefined && setParts > 0) throw badRequest('exactly one of subject_set or subject_id has to be provided');
  if (setParts > 0 && setParts < 3)
    throw badRequest('incomplete subject, provide "subject_id" or a complete "subject_set.*"');
  if (setParts === 3) return { subject_set: set as SubjectSet };
  return id !== undefined ? { subject_id: id } : {};
}

export function parseTuple(source: unknown): RelationTuple {
  if (!source || typeof source !== 'object' || Array.isArray(source)) throw badRequest('Unable to decode JSON payload');
  const record = source as Record<string, unknown>;
  const subject = subjectOf(record);
  const tuple = {
    namespace: text(record.namespace),
    object: text(record.object),
    relation: text(record.relation),
    ...subject,
  };
  if (
    !tuple.namespace ||
    tuple.object === undefined ||
    !tuple.relation ||
    (!subject.subject_id && !subject.subject_set)
  ) {
    throw badRequest('incomplete tuple, provide "namespace", "object", "relation", and a subject');
  }
  checkLength(
    tuple.namespace,
    tuple.object,
    tuple.relation,
    subject.subject_id,
    subject.subject_set?.namespace,
    subject.subject_set?.object,
    subject.subject_set?.relation,
  );
  return tuple as RelationTuple;
}

export function parseQuery(source: Record<string, unknown>): TupleQuery {
  const query: TupleQuery = {
    namespace: text(source.namespace),
    object: text(source.object),
    relation: text(source.relation),
    ...subjectOf(source),
  };
  checkLength(query.namespace, query.object, query.relation, query.subject_id);
  return query;
}

/** The tuple as Keto serialises it: `subject_id` or `subject_set`, never both. */
export const tupleJson = (tuple: RelationTuple): RelationTuple => ({
  namespace: tuple.namespace,
  object: tuple.object,
  relation: tuple.relation,
  ...(tuple.subject_set ? { subject_set: tuple.subject_set } : { subject_id: tuple.subject_id ?? '' }),
});

export function tupleQueryString(tuple: RelationTuple): string {
  const params = new URLSearchParams({ namespace: tuple.namespace, object: tuple.object, relation: tuple.relation });
  if (tuple.subject_set) {
    params.set('subject_set.namespace', tuple.subject_set.namespace);
    params.set('subject_set.object', tuple.subject_set.object);
    params.set('subject_set.relation', tuple.subject_set.relation);
  } else params.set('subject_id', tuple.subject_id ?? '');
  return params.toString();
}
