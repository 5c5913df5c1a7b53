import type { RelationTuple } from '@portaal/relations';
import type { OrganisationRecord } from '../ports.js';

export const MEMBERSHIP = new Set(['issuer', 'access']);

/** The organisations a person is a member of (an `issuer` or `access` tuple), in the order the store lists them. */
export const membershipsOf = (tuples: RelationTuple[]): string[] => [
  ...new Set(tuples.filter((t) => t.namespace === 'organizations' && MEMBERSHIP.has(t.relation)).map((t) => t.object)),
];

/**
 * The home organisation: the recorded one while the person is a member of it, otherwise the oldest remaining
 * membership (a membership from before organisations were recorded counts as oldest; ties by id).
 */
export function homeOrganisationOf(record: OrganisationRecord, memberships: string[]): string | undefined {
  if (record.home && memberships.includes(record.home)) return record.home;
  const joined = record.joined ?? {};
  // Own keys only: an organisation id such as `constructor` must not find Object.prototype's.
  const since = (id: string) => (Object.hasOwn(joined, id) ? (joined[id] ?? '') : '');
  return [...memberships].sort((a, b) => since(a).localeCompare(since(b)) || a.localeCompare(b))[0];
}

/**
 * The person's organisation record brought in line with their memberships: a home that is a membership, the active
 * organisation only while it is one, and no join dates of organisations they left. Pure: the Users API writes a
 * record only when it changes memberships or the choice (docs/organisations.md), never on a read.
 */
export function settledRecord(current: OrganisationRecord, tuples: RelationTuple[]): OrganisationRecord {
  const memberships = membershipsOf(tuples);
  return {
    home: homeOrganisationOf(current, memberships),
    active: current.active && memberships.includes(current.active) ? current.active : undefined,
    joined: Object.fromEntries(Object.entries(current.joined ?? {}).filter(([id]) => memberships.includes(id))),
  };
}
