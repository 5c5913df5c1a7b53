import type { RelationTuple } from '@portaal/relations';
import type { Catalogue, Organisation } from '../catalogue/catalogue.js';
import type { CallerSession, RelationsPort } from '../ports.js';

export interface Caller {
  session: CallerSession;
  /** Every tuple whose subject is the caller. */
  tuples: RelationTuple[];
  /** Organisations the caller has access to (issuer or access), by label. */
  organisations: Organisation[];
  activeOrg: Organisation | undefined;
  /** Holds `admin` on the active organisation and passes the dashboard allow-list. */
  isAdmin: boolean;
  aal2Required: boolean;
}

export const MEMBERSHIP = new Set(['issuer', 'access']);

/** An organisation named in a tuple but missing from the catalogue still counts, with its id as label. */
function organisationOf(catalogue: Catalogue, id: string): Organisation {
  return catalogue.organisations.find((o) => o.id === id) ?? { id, label: id, requiresAal2: true, dataRoles: [] };
}

function organisationsOf(catalogue: Catalogue, tuples: RelationTuple[]): Organisation[] {
  const ids = new Set(
    tuples.filter((t) => t.namespace === 'organizations' && MEMBERSHIP.has(t.relation)).map((t) => t.object),
  );
  return [...ids].map((id) => organisationOf(catalogue, id)).sort((a, b) => a.label.localeCompare(b.label, 'nl'));
}

export async function resolveCaller(
  session: CallerSession,
  relations: RelationsPort,
  catalogue: Catalogue,
  allowlist: string[],
): Promise<Caller> {
  const tuples = await relations.list({ subject_id: session.identity.id });
  const organisations = organisationsOf(catalogue, tuples);
  const activeOrg = organisations[0];
  const adminTuple =
    activeOrg !== undefined &&
    tuples.some((t) => t.namespace === 'organizations' && t.object === activeOrg.id && t.relation === 'admin');
  const allowed = allowlist.length === 0 || allowlist.includes(session.identity.traits.email.toLowerCase());
  return {
    session,
    tuples,
    organisations,
    activeOrg,
    isAdmin: adminTuple && allowed,
    aal2Required: organisations.some((o) => o.requiresAal2),
  };
}
