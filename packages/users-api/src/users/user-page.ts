import type { RelationTuple } from '@portaal/relations';
import { dataRoleObject, type Organisation } from '../catalogue/catalogue.js';
import type { AdminCaller, ApiContext } from '../context.js';
import { type Key, type KeptKeys, keptKeys, keptStatuses, orderOf } from './kept-keys.js';
import { invitedJson, memberJson } from './user-json.js';
import { type Listed, searchEntries, searchTextOf, type SortKey, sortEntries } from './user-order.js';
import { listUsers } from './user-service.js';
import { factsOf, hasStatus, type StatusKey } from './user-status.js';

/**
 * One person of the list as `GET /users` shows them: a member, or someone invited (users/user-json.ts), whose last
 * sign-in the inviting organisation does not see.
 */
export type ListedUser = Omit<ReturnType<typeof memberJson>, 'lastSignInAt'> & {
  lastSignInAt?: string | null;
  invitation?: { id: string; expiresAt: string };
};

/** What the overview asks for: a page (from 1) of `perPage`, in an order, optionally searched and of one status. */
export interface PageRequest {
  page: number;
  perPage: number;
  sort: SortKey;
  q: string;
  status?: StatusKey;
}

const searchText = new WeakMap<Listed, { name: string; email: string }>();

function textOf(entry: Listed) {
  let text = searchText.get(entry);
  if (!text) {
    text = searchTextOf(entry);
    searchText.set(entry, text);
  }
  return text;
}

/** The entries of these people as the whole list has them, read now. */
async function entriesOf(ctx: ApiContext, org: Organisation, keys: readonly Key[]): Promise<ListedUser[]> {
  // Only the tuples `listUsers` reads, in its order: the organisation's, then each data role's of the catalogue.
  const rank = new Map(org.dataRoles.map((r, i) => [dataRoleObject(r.id, org.id), i + 1]));
  const rankOf = (t: { namespace: string; object: string }) =>
    t.namespace === 'organizations'
      ? t.object === org.id
        ? 0
        : undefined
      : t.namespace === 'subdivisions'
        ? rank.get(t.object)
        : undefined;
  const listed = (tuples: RelationTuple[]) =>
    tuples.filter((t) => rankOf(t) !== undefined).sort((a, b) => rankOf(a)! - rankOf(b)!);
  const members = keys.filter((k) => !k.invitation).map((k) => k.id);
  const { backend } = ctx;
  const [users, tuples, lastSignIns] = await Promise.all([
    backend.identities.get(keys.map((k) => k.id)),
    backend.tuplesOf
      ? backend.tuplesOf(members)
      : Promise.all(members.map((id) => backend.relations.list({ subject_id: id }))).then((lists) => lists.flat()),
    ctx.lastSignIns.of(members),
  ]);
  const byId = new Map(users.map((u) => [u.id, u]));
  const tuplesOfMember = new Map<string, RelationTuple[]>();
  for (const tuple of tuples) {
    const own = tuplesOfMember.get(tuple.subject_id!);
    if (own) own.push(tuple);
    else tuplesOfMember.set(tuple.subject_id!, [tuple]);
  }
  return keys.flatMap((key): ListedUser[] => {
    const user = byId.get(key.id);
    if (!user) return [];
    return [
      key.invitation
        ? invitedJson(user, key.invitation, org)
        : memberJson(user, listed(tuplesOfMember.get(key.id) ?? []), org, lastSignIns.get(key.id) ?? null),
    ];
  });
}

function sorted(
  entries: readonly ListedUser[],
  request: { sort: SortKey; q: string; status?: StatusKey; email?: string },
) {
  const { email, status } = request;
  const found = searchEntries(sortEntries(entries, request.sort), request.q, textOf);
  return found.filter(
    (entry) => (email === undefined || entry.traits.email === email) && (!status || hasStatus(factsOf(entry), status)),
  );
}

/** The people of the active organisation in one order, searched, of one status, as whole entries: for the CSV. */
export async function shownUsers(
  ctx: ApiContext,
  caller: AdminCaller,
  request: { sort: SortKey; q: string; status?: StatusKey },
): Promise<readonly ListedUser[]> {
  return sorted(await listUsers(ctx, caller), request);
}

/**
 * One page of the overview and how many people the search leaves in all
 * (docs/architecture.md#the-users-list-a-page-at-a-time). Ory has no narrow read: there the whole list is read and
 * paged, and so it is for a status, which needs every person's state, lock and factors as they are now.
 */
export async function pageOfUsers(
  ctx: ApiContext,
  caller: AdminCaller,
  request: PageRequest & { email?: string },
): Promise<{ items: ListedUser[]; total: number; page: number; per_page: number }> {
  const org = caller.activeOrg;
  const start = (request.page - 1) * request.perPage;
  const answer = (items: ListedUser[], total: number) => ({
    items,
    total,
    page: request.page,
    per_page: request.perPage,
  });
  const { membersOf, statusesOf, locksOf } = ctx.backend;
  if (!membersOf || (request.status && !(statusesOf && locksOf))) {
    const shown = sorted(await listUsers(ctx, caller), request);
    return answer(shown.slice(start, start + request.perPage), shown.length);
  }
  const kept = await keptKeys(ctx, org, membersOf.bind(ctx.backend));
  let shown = searchEntries(await orderOf(ctx, kept, request.sort), request.q, textOf);
  if (request.email !== undefined) shown = shown.filter((k) => k.traits.email === request.email);
  if (request.status) shown = await ofStatus(ctx, org, kept, shown, request.status);
  return answer(await entriesOf(ctx, org, shown.slice(start, start + request.perPage)), shown.length);
}

/**
 * The keys of the people of one status, decided on their state and factors as kept under the people mark
 * (`keptStatuses`) and their locks read now (`Backend.locksOf`), by the rules the entries show them with
 * (users/user-json.ts): a lock and the factors only for the home organisation.
 */
async function ofStatus(ctx: ApiContext, org: Organisation, kept: KeptKeys, keys: readonly Key[], status: StatusKey) {
  const members = kept.keys.filter((key) => !key.invitation).map((key) => ({ id: key.id, email: key.traits.email }));
  const [statuses, locks] = await Promise.all([keptStatuses(ctx, org, kept), ctx.backend.locksOf!(members)]);
  return keys.filter((key) => {
    if (key.invitation) return status === 'invited';
    const now = statuses.get(key.id);
    if (!now) return false;
    const home = (now.organisationRecord.home ?? org.id) === org.id;
    const facts = {
      invited: false,
      state: now.state,
      home,
      locked: home && locks.has(key.id),
      anyFactor: home && now.anyFactor,
    };
    return hasStatus(facts, status);
  });
}
