import { queryOptions, useQuery } from '@tanstack/react-query';
import { usersApi, type CurrentUser } from './users-api';

/** The signed-in person, or an error when there is no session (401) or it is not usable. */
export const currentUserQuery = queryOptions({
  queryKey: ['users', 'whoami'],
  queryFn: () => usersApi<CurrentUser>('/users/whoami'),
  retry: false,
  staleTime: 30_000,
});

export const useCurrentUser = () => useQuery(currentUserQuery);

export const useOrganisationAdmins = (enabled: boolean) =>
  useQuery({
    queryKey: ['users', 'admins'],
    queryFn: () => usersApi<{ id: string; traits: { email: string } }[]>('/users/admins'),
    enabled,
    retry: false,
  });
