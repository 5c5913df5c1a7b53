import { v7 as timeOrderedId } from 'uuid';
import { dataRoleObject, type Organisation } from '../catalogue/catalogue.js';
import { auditAbout } from '../audit/audit-about.js';
import type { ApiContext } from '../context.js';
import { errors } from '../api-error.js';
import { MEMBERSHIP } from '../users/caller.js';
import { factorKinds, type FactorKind } from '../users/second-factor.js';
import type { Acting } from '../users/user-service.js';
import type { AccessReview, ReviewDecision, ReviewItem } from './access-review-store.js';

/** A person who holds at least one data role of the organisation, as the review shows them. */
export interface ReviewPerson {
  userId: string;
  name: { first: string; last: string };
  email: string;
  lastSignInAt: string | null;
  /** Null where the organisation may not see them: the person's home organisation is another. */
  factors: FactorKind[] | null;
  /** In the catalogue's order. */
  dataRoles: { roleId: string; label: string }[];
}

/** One decision of a finished review: keep or withdraw one data role of one person. */
export interface Decision {
  userId: string;
  roleId: string;
  decision: ReviewDecision;
}

const byName = (a: ReviewPerson, b: ReviewPerson) =>
  a.name.last.localeCompare(b.name.last, 'nl') ||
  a.name.first.localeCompare(b.name.first, 'nl') ||
  a.email.localeCompare(b.email) ||
  a.userId.localeCompare(b.userId);

/**
 * Everyone who holds a data role of the organisation now, with which, their last sign-in and (home organisation only)
 * their kinds of second factor, by last name. Whoever holds a role's tuple may use its services (`mayUse`), so a
 * holder is listed whether or not they are still a member.
 */
export async function reviewToDo(ctx: ApiContext, org: Organisation): Promise<ReviewPerson[]> {
  const { relations, identities } = ctx.backend;
  const lists = await Promise.all(
    org.dataRoles.map((role) => relations.list({ namespace: 'subdivisions', object: dataRoleObject(role.id, org.id) })),
  );
  const rolesOf = new Map<string, Set<string>>();
  lists.forEach((tuples, i) => {
    for (const tuple of tuples) {
      if (!tuple.subject_id || !MEMBERSHIP.has(tuple.relation)) continue;
      const held = rolesOf.get(tuple.subject_id) ?? new Set<string>();
      held.add(org.dataRoles[i]!.id);
      rolesOf.set(tuple.subject_id, held);
    }
  });
  const ids = [...rolesOf.keys()];
  const [people, lastSignIns] = await Promise.all([identities.get(ids), ctx.lastSignIns.of(ids)]);
  return people
    .map((person) => ({
      userId: person.id,
      name: person.traits.name,
      email: person.traits.email,
      lastSignInAt: lastSignIns.get(person.id) ?? null,
      factors: person.organisationRecord.home === org.id ? factorKinds(person.credentials) : null,
      dataRoles: org.dataRoles
        .filter((role) => rolesOf.get(person.id)!.has(role.id))
        .map((role) => ({ roleId: role.id, label: role.label })),
    }))
    .sort(byName);
}

const pairKey = (userId: string, roleId: string) => `${userId}\n${roleId}`;

/**
 * Finishes a review of the active organisation: one decision for every data role anyone holds now, no more and no
 * fewer (409 `review_outdated` when the roles changed since the review was loaded; nothing is written then). The
 * withdrawals, the review with every decision, an audit entry per withdrawal and one for the review are written in
 * one `atomically`, so on the embedded backend they commit together; the withdrawn roles end access at once.
 */
export async function completeReview(ctx: ApiContext, acting: Acting, decisions: Decision[]): Promise<AccessReview> {
  const { caller, request } = acting;
  const org = caller.activeOrg;
  const todo = await reviewToDo(ctx, org);
  const decided = new Map(decisions.map((d) => [pairKey(d.userId, d.roleId), d.decision]));
  const pairs = todo.flatMap((person) => person.dataRoles.map((role) => ({ person, role })));
  if (pairs.length === 0) throw errors.nothingToReview();
  const complete =
    decided.size === decisions.length &&
    decided.size === pairs.length &&
    pairs.every(({ person, role }) => decided.has(pairKey(person.userId, role.roleId)));
  if (!complete) throw errors.reviewOutdated();
  const items: ReviewItem[] = pairs.map(({ person, role }) => ({
    identityId: person.userId,
    email: person.email,
    name: `${person.name.first} ${person.name.last}`,
    dataRoleId: role.roleId,
    dataRoleLabel: role.label,
    lastSignInAt: person.lastSignInAt,
    factors: person.factors,
    decision: decided.get(pairKey(person.userId, role.roleId))!,
  }));
  const withdrawals = items.filter((item) => item.decision === 'withdraw');
  const review: AccessReview = {
    id: timeOrderedId(),
    organisationId: org.id,
    reviewedById: caller.session.identity.id,
    reviewedByEmail: caller.session.identity.traits.email,
    completedAt: new Date().toISOString(),
    kept: items.length - withdrawals.length,
    withdrawn: withdrawals.length,
  };
  await ctx.backend.atomically(async (ports) => {
    if (withdrawals.length > 0) {
      await ports.relations.patch({
        delete: withdrawals.map((item) => ({
          namespace: 'subdivisions',
          object: dataRoleObject(item.dataRoleId, org.id),
          subject_id: item.identityId,
        })),
      });
    }
    await ports.reviews.record(review, items);
    for (const item of withdrawals) {
      const target = { id: item.identityId, email: item.email };
      const details = { relation: `subdivisions:${dataRoleObject(item.dataRoleId, org.id)}`, review: review.id };
      await ports.audit.record(auditAbout(caller, request, 'permissions.remove', target, 'success', details));
    }
    const counts = { review: review.id, kept: review.kept, withdrawn: review.withdrawn };
    await ports.audit.record(auditAbout(caller, request, 'access_review.complete', null, 'success', counts));
  });
  return review;
}
