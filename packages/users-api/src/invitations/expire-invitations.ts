import type { ApiContext } from '../context.js';

/** Removes the invitations past `INVITATION_LIFESPAN`, each audited once, before any list of them is answered. */
export async function expireInvitations(ctx: ApiContext): Promise<void> {
  for (const invitation of await ctx.invitations.removeExpired()) {
    await ctx.audit.record({
      organisationId: invitation.organisationId,
      action: 'invitation.expire',
      objectId: invitation.identityId,
      objectEmail: invitation.email,
      result: 'success',
    });
  }
}
