import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { currentUserQuery } from '../api/queries';
import { secondFactorGate, type UsersStatus, usersPage } from '../api/users-api';
import { PAGE_SIZE } from './Pagination';
import type { SortKey } from './sorting';

/**
 * One page of the overview (from 0), in an order, searched, of one status or all: keyed under ['users'], which every
 * change reloads.
 */
export const usersPageQuery = (page: number, sort: SortKey, q: string, status?: UsersStatus) =>
  queryOptions({
    queryKey: ['users', 'list', { page, sort, q, status }],
    // The signal cancels a page nobody waits for any more: a search overtaken by the next key.
    queryFn: ({ signal }) => usersPage({ page: page + 1, perPage: PAGE_SIZE, sort, q, status }, signal),
    retry: false,
    // The first page asked for while the overview's code loads (`warmOverview`) is not asked for again when the
    // screen mounts; every change made through the portal invalidates ['users'] at once.
    staleTime: 5_000,
  });

/**
 * Asks for whoami and, for an administrator who may see the overview, its first page while the overview's code
 * loads: React keeps the loading screen for at least 300 ms once shown, so both answers are there when it goes.
 */
export async function warmOverview(client: QueryClient): Promise<void> {
  const me = await client.fetchQuery(currentUserQuery);
  if (me.isAdmin && !secondFactorGate(me)) await client.prefetchQuery(usersPageQuery(0, 'type', ''));
}
