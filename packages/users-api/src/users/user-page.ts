import type { Organisation } from '../catalogue/catalogue.js';
import type { AdminCaller, ApiContext } from '../http/api-context.js';
import type { Backend } from '../ports.js';
import { searchEntries, searchTextOf, type SortKey, sortEntries } from './user-order.js';
import type { memberJson } from './user-json.js';
import { listUsers } from './user-service.js';

/** One person of the list as `GET /users` shows them: a member, or someone invited (users/user-json.ts). */
export type ListedUser = ReturnType<typeof memberJson> & { invitation?: { id: string; expiresAt: string } };

/** What the overview asks for: a page (from 1) of `perPage`, in an order, optionally searched. */
export interface PageRequest {
  page: number;
  perPage: number;
  sort: SortKey;
  q: string;
}

/** An organisation's list as read under one change mark, with its orders made as they are asked for. */
interface KeptList {
  /** The catalogue's labels it was made with (the catalogue is read again every few seconds). */
  labels: string;
  mark: string;
  /** When something in it changes by the clock alone: an invitation expires, a lock ends. */
  until: number;
  entries: ListedUser[];
  orders: Map<SortKey, ListedUser[]>;
}

/** Lists kept per organisation; the organisations used last stay. */
const KEPT_ORGANISATIONS = 4;
const keptOf = new WeakMap<Backend, Map<string, KeptList>>();
const searchText = new WeakMap<ListedUser, { name: string; email: string }>();

function textOf(entry: ListedUser) {
  let text = searchText.get(entry);
  if (!text) {
    text = searchTextOf(entry);
    searchText.set(entry, text);
  }
  return text;
}

const labelsOf = (org: Organisation) => JSON.stringify([org.label, org.dataRoles.map((r) => [r.id, r.label])]);

function untilOf(entries: ListedUser[]): number {
  let until = Number.POSITIVE_INFINITY;
  for (const entry of entries) {
    if (entry.invitation) until = Math.min(until, Date.parse(entry.invitation.expiresAt));
    if (entry.lockedUntil) until = Math.min(until, Date.parse(entry.lockedUntil));
  }
  return until;
}

/**
 * The organisation's list, kept while the database's change mark (`Backend.changeMark`) stays: any write anywhere,
 * by this process or another, changes it, so a person changed, blocked or deleted shows so at the very next request
 * (as in packages/idp's kept whoami answers). The mark is read before the list, so a change made while it is read
 * makes the next request read again. Ory has no mark: there every request reads the whole list.
 */
async function listOf(ctx: ApiContext, caller: AdminCaller): Promise<KeptList> {
  const org = caller.activeOrg;
  const mark = ctx.backend.changeMark ? await ctx.backend.changeMark() : undefined;
  let kept = keptOf.get(ctx.backend);
  const hit = kept?.get(org.id);
  const labels = labelsOf(org);
  if (hit && hit.mark === mark && hit.labels === labels && Date.now() < hit.until) return hit;
  const entries: ListedUser[] = await listUsers(ctx, caller);
  const list: KeptList = { labels, mark: mark ?? '', until: untilOf(entries), entries, orders: new Map() };
  if (mark === undefined) return list;
  if (!kept) {
    kept = new Map();
    keptOf.set(ctx.backend, kept);
  }
  kept.delete(org.id);
  if (kept.size >= KEPT_ORGANISATIONS) kept.delete(kept.keys().next().value!);
  kept.set(org.id, list);
  return list;
}

/** The people of the active organisation in one order, searched: what a page or the CSV export shows. */
export async function shownUsers(
  ctx: ApiContext,
  caller: AdminCaller,
  request: { sort: SortKey; q: string; email?: string },
): Promise<readonly ListedUser[]> {
  const list = await listOf(ctx, caller);
  let sorted = list.orders.get(request.sort);
  if (!sorted) {
    sorted = sortEntries(list.entries, request.sort);
    list.orders.set(request.sort, sorted);
  }
  const found = searchEntries(sorted, request.q, textOf);
  const { email } = request;
  return email === undefined ? found : found.filter((entry) => entry.traits.email === email);
}

/**
 * One page of the overview and how many people the search leaves in all
 * (docs/architecture.md#the-users-list-a-page-at-a-time).
 */
export async function pageOfUsers(
  ctx: ApiContext,
  caller: AdminCaller,
  request: PageRequest & { email?: string },
): Promise<{ items: ListedUser[]; total: number; page: number; per_page: number }> {
  const shown = await shownUsers(ctx, caller, request);
  const start = (request.page - 1) * request.perPage;
  return {
    items: shown.slice(start, start + request.perPage),
    total: shown.length,
    page: request.page,
    per_page: request.perPage,
  };
}
