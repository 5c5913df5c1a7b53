import { KeptAnswers } from '@portaal/idp';
import type { Organisation } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import { expireInvitations } from '../invitations/expire-invitations.js';
import type { Invitation } from '../invitations/invitation-store.js';
import type { Backend, MemberKey, MemberStatus } from '../ports.js';
import { withinOrganisation } from './user-json.js';
import { type Listed, placeEntries, type SortKey, sortByLastSignIn, sortEntries } from './user-order.js';

/** What a person is sorted and searched by; an invited person carries the invitation. */
export interface Key extends Listed {
  invitation?: Invitation;
}

/** An organisation's keys as read under one people mark, with its orders made as they are asked for. */
export interface KeptKeys {
  keys: Key[];
  orders: Map<SortKey, Key[]>;
  /** Everyone the organisation's invitations are for when the keys were read, shown or not. */
  invited: ReadonlySet<string>;
  /** The members' states and factors, read when a page of one status is first asked for. */
  statuses?: Map<string, MemberStatus>;
}

/** Keys kept per organisation; the organisations used last stay. */
const KEPT_ORGANISATIONS = 4;
/** Beyond this many people changed, reading every key again costs less than placing each. */
const MOST_PLACED = 1_000;
const keptOf = new WeakMap<Backend, KeptAnswers<KeptKeys>>();

type MembersOf = NonNullable<Backend['membersOf']>;

const typeOf = (admin: boolean) => ({ id: admin ? 'administrator' : 'analyst' });
const memberKey = (member: MemberKey): Key => ({ ...member, userType: typeOf(member.admin) });

/**
 * The members and invited people of the organisation, as few reads as the backend allows: the members' keys in one
 * statement (`Backend.membersOf`), the pending invitations, and the invited people (a handful). The same people, in
 * the same order, as `listUsers`.
 */
async function keysOf(ctx: ApiContext, org: Organisation, membersOf: MembersOf): Promise<KeptKeys> {
  const [members, invitations] = await Promise.all([
    membersOf(org.id),
    expireInvitations(ctx).then(() => ctx.invitations.ofOrganisation(org.id)),
  ]);
  const memberIds = new Set(members.map((m) => m.id));
  // As in `listUsers`: an invitation of someone who holds anything within the organisation is not shown.
  const pending: Invitation[] = [];
  for (const invitation of invitations) {
    if (memberIds.has(invitation.identityId)) continue;
    const tuples = await ctx.backend.relations.list({ subject_id: invitation.identityId });
    if (!tuples.some((t) => withinOrganisation(t, org.id))) pending.push(invitation);
  }
  const invited = new Map((await ctx.backend.identities.get(pending.map((i) => i.identityId))).map((u) => [u.id, u]));
  const keys = members.map(memberKey);
  for (const invitation of pending) {
    const user = invited.get(invitation.identityId);
    if (!user) continue;
    const admin = invitation.relations.some(
      (t) => t.namespace === 'organizations' && t.object === org.id && t.relation === 'admin',
    );
    keys.push({ id: user.id, traits: user.traits, created_at: user.created_at, userType: typeOf(admin), invitation });
  }
  return { keys, orders: new Map(), invited: new Set(invitations.map((i) => i.identityId)) };
}

/**
 * The kept keys brought up to the people changed since (`Backend.peopleChangedSince`): those of them who are
 * members now read again and placed in each kept order, the others left out. Undefined when that cannot be done: an
 * invited person among them (whether an invitation shows depends on the person's every tuple), too many of them.
 */
async function placed(
  ctx: ApiContext,
  kept: KeptKeys,
  org: Organisation,
  changed: string[],
  membersOf: MembersOf,
): Promise<KeptKeys | undefined> {
  if (changed.length > MOST_PLACED || changed.some((id) => kept.invited.has(id))) return undefined;
  const removed = new Set(changed);
  const [added, changedStatuses] = await Promise.all([
    membersOf(org.id, changed).then((members) => members.map(memberKey)),
    kept.statuses && ctx.backend.statusesOf!(org.id, changed),
  ]);
  const orders = new Map<SortKey, Key[]>();
  for (const [sort, order] of kept.orders) orders.set(sort, placeEntries(order, sort, removed, added));
  const keys = kept.keys.filter((key) => !removed.has(key.id)).concat(added);
  let statuses: Map<string, MemberStatus> | undefined;
  if (kept.statuses && changedStatuses) {
    statuses = new Map(kept.statuses);
    for (const id of changed) statuses.delete(id);
    for (const [id, status] of changedStatuses) statuses.set(id, status);
  }
  return { keys, orders, invited: kept.invited, statuses };
}

/**
 * The members' states and factors (`Backend.statusesOf`), read once under the people mark with the keys, which
 * every block, change of organisation record and credential added or removed changes.
 */
export async function keptStatuses(ctx: ApiContext, org: Organisation, kept: KeptKeys) {
  kept.statuses ??= await ctx.backend.statusesOf!(org.id);
  return kept.statuses;
}

/**
 * The organisation's keys, kept while the people mark (`Backend.peopleMark`) stays: any change to a person, their
 * status, a tuple or an invitation, by this process or another, changes it when it commits, so a person renamed,
 * added, removed or blocked is placed so at the very next request. Sign-ins, sessions and audit entries leave it
 * alone. When it has changed, only the people the changes were about are read again, where the backend can tell who
 * they were. The mark is read before the keys, so a change made while they are read makes the next request read
 * again. Only the order and the search use the keys; a page's entries are read afresh.
 */
export async function keptKeys(ctx: ApiContext, org: Organisation, membersOf: MembersOf): Promise<KeptKeys> {
  const { backend } = ctx;
  const mark = backend.peopleMark ? await backend.peopleMark() : undefined;
  if (mark === undefined) return keysOf(ctx, org, membersOf);
  let kept = keptOf.get(backend);
  if (!kept) {
    kept = new KeptAnswers(KEPT_ORGANISATIONS);
    keptOf.set(backend, kept);
  }
  const now = Date.now();
  const stale = kept.stale(org.id);
  if (stale && stale.mark === mark && now < stale.until) return stale.answer;
  if (stale && now < stale.until && backend.peopleChangedSince) {
    const changed = await backend.peopleChangedSince(stale.mark, mark);
    const list = changed && (await placed(ctx, stale.answer, org, changed, membersOf));
    if (list) {
      kept.keep(org.id, mark, stale.until, list);
      return list;
    }
  }
  const list = await keysOf(ctx, org, membersOf);
  // An invitation that expires changes the list by the clock alone.
  let until = Number.POSITIVE_INFINITY;
  for (const key of list.keys) if (key.invitation) until = Math.min(until, Date.parse(key.invitation.expiresAt));
  kept.keep(org.id, mark, until, list);
  return list;
}

/**
 * The kept keys in an order, sorted once under the people mark; by last sign-in afresh each time, as every sign-in
 * changes it and leaves the mark alone.
 */
export async function orderOf(ctx: ApiContext, kept: KeptKeys, sort: SortKey): Promise<readonly Key[]> {
  if (sort === 'last_sign_in') {
    const [byName, signedIn] = await Promise.all([
      orderOf(ctx, kept, 'name'),
      ctx.lastSignIns.of(kept.keys.filter((key) => !key.invitation).map((key) => key.id)),
    ]);
    return sortByLastSignIn(
      byName.map((key) => (key.invitation ? key : { ...key, lastSignInAt: signedIn.get(key.id) ?? null })),
    );
  }
  let order = kept.orders.get(sort);
  if (!order) {
    order = sortEntries(kept.keys, sort);
    kept.orders.set(sort, order);
  }
  return order;
}
