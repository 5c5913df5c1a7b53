import { auditAbout, type RequestOrigin } from '../audit/audit-about.js';
import type { AdminCaller, ApiContext } from '../context.js';
import { errors } from '../api-error.js';
import type { UserIdentity } from '../ports.js';
import { settledRecord } from './home-organisation.js';
import { memberTuples } from './membership.js';

/** A member of the organisation with all their tuples, and whether the organisation is their home. */
export async function targetOf(ctx: ApiContext, org: AdminCaller['activeOrg'], id: string) {
  const tuples = await memberTuples(ctx.backend.relations, org, id);
  const [user] = await ctx.backend.identities.get([id]);
  if (!user) throw errors.notMember();
  const record = settledRecord(user.organisationRecord, tuples);
  return { user, tuples, home: record.home === org.id };
}

/** A guest organisation asked to change the account itself: refused (409) and audited, nothing written. */
export async function refuseGuest(
  ctx: ApiContext,
  caller: AdminCaller,
  request: RequestOrigin,
  action: string,
  target: UserIdentity,
): Promise<never> {
  await ctx.audit.record(
    auditAbout(caller, request, action, target, 'denied', { reason: 'not the home organisation' }),
  );
  throw errors.sharedUser();
}
