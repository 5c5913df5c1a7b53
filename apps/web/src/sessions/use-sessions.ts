import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { frontend } from '../api/ory';

const otherSessionsKey = ['sessions', 'others'] as const;

/** The person's other active sessions (`GET /sessions` leaves out the one in use). */
export const useOtherSessions = () =>
  useQuery({ queryKey: otherSessionsKey, queryFn: () => frontend.listMySessions(), retry: false });

/** Ends one other session by id, or with 'all' every session but this one; the list is fetched again afterwards. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (target: string) => {
      if (target === 'all') await frontend.disableMyOtherSessions();
      else await frontend.disableMySession(target);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: otherSessionsKey }),
  });
}
