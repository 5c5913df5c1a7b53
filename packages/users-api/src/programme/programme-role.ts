import type { RelationTuple } from '@portaal/relations';

/**
 * The programme administrators ('Programmabeheer') hold one tuple, `programme:portaal#admin@<user>`
 * (docs/architecture.md#relation-tuples): they manage the organisations, data roles and data services themselves,
 * always with a second factor.
 */
export const PROGRAMME = { namespace: 'programme', object: 'portaal', relation: 'admin' } as const;

export const programmeAdminTuple = (userId: string): RelationTuple => ({ ...PROGRAMME, subject_id: userId });

export const isProgrammeAdmin = (tuples: RelationTuple[]) =>
  tuples.some(
    (t) => t.namespace === PROGRAMME.namespace && t.object === PROGRAMME.object && t.relation === PROGRAMME.relation,
  );
