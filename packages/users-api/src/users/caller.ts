import type { RelationTuple } from '@portaal/relations';
import type { Catalogue, Organisation } from '../catalogue/catalogue.js';
import type { CallerSession, OrganisationRecord, RelationsPort } from '../ports.js';
import { isProgrammeAdmin } from '../programme/programme-role.js';
import { membershipsOf, settledRecord } from './home-organisation.js';

export { MEMBERSHIP } from './home-organisation.js';

export interface Caller {
  session: CallerSession;
  /** Every tuple whose subject is the caller. */
  tuples: RelationTuple[];
  /** Organisations the caller has access to (issuer or access), by label. */
  organisations: Organisation[];
  /** The caller's organisation record, settled against their memberships (docs/organisations.md). */
  record: OrganisationRecord;
  /** The caller's home organisation. */
  homeOrgId: string | undefined;
  /** The organisation the caller chose to work in; their home until they choose. */
  activeOrg: Organisation | undefined;
  /** Holds `admin` on the active organisation and passes the dashboard allow-list. */
  isAdmin: boolean;
  /** Holds `programme:portaal#admin` (programme/programme-role.ts). */
  isProgrammeAdmin: boolean;
  /** A member of an organisation that asks for a second factor, or a programme administrator (always). */
  aal2Required: boolean;
}

/** An organisation named in a tuple but missing from the catalogue still counts, with its id as label. */
export const organisationIn = (catalogue: Catalogue, id: string): Organisation =>
  catalogue.organisations.find((o) => o.id === id) ?? {
    id,
    label: id,
    requiresAal2: true,
    active: true,
    dataRoles: [],
  };

export const administers = (tuples: RelationTuple[], orgId: string) =>
  tuples.some((t) => t.namespace === 'organizations' && t.object === orgId && t.relation === 'admin');

export async function resolveCaller(
  session: CallerSession,
  relations: RelationsPort,
  catalogue: Catalogue,
  allowlist: string[],
): Promise<Caller> {
  const tuples = await relations.list({ subject_id: session.identity.id });
  const organisations = membershipsOf(tuples)
    .map((id) => organisationIn(catalogue, id))
    .sort((a, b) => a.label.localeCompare(b.label, 'nl'));
  const record = settledRecord(session.identity.organisationRecord, tuples);
  const activeOrg =
    organisations.find((o) => o.id === record.active) ??
    organisations.find((o) => o.id === record.home) ??
    organisations[0];
  const allowed = allowlist.length === 0 || allowlist.includes(session.identity.traits.email.toLowerCase());
  const programmeAdmin = isProgrammeAdmin(tuples);
  return {
    session,
    tuples,
    organisations,
    record,
    homeOrgId: record.home,
    activeOrg,
    isAdmin: activeOrg !== undefined && administers(tuples, activeOrg.id) && allowed,
    isProgrammeAdmin: programmeAdmin,
    aal2Required: programmeAdmin || organisations.some((o) => o.requiresAal2),
  };
}
