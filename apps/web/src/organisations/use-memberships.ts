import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  acceptInvitation,
  declineInvitation,
  leaveOrganisation,
  reasonOf,
  switchOrganisation,
  type Membership,
  type PendingInvitation,
} from '../api/users-api';
import { useToast } from '../components/Toasts';

export const SWITCH_FAILED = 'Wisselen van organisatie is niet gelukt. Probeer het later nog eens.';
export const LEAVE_FAILED = 'Verlaten van de organisatie is niet gelukt. Probeer het later nog eens.';
export const ACCEPT_FAILED = 'Accepteren van de uitnodiging is niet gelukt. Probeer het later nog eens.';
export const DECLINE_FAILED = 'Weigeren van de uitnodiging is niet gelukt. Probeer het later nog eens.';

/**
 * A change of memberships. Afterwards everything that depends on the active organisation is fetched again (who is
 * signed in, the users and administrators of the organisation, the data services), and only then is the person told,
 * so that the screen shows the new state by then. A refusal shows the server's Dutch reason, or `failure`.
 *
 * The toasts are the mutation's own, not the caller's: the new state may take the caller away (a switch away from an
 * organisation one administers leaves the overview), and a caller's callbacks are dropped once it is gone.
 */
function useMembershipChange<T, R>(
  call: (value: T) => Promise<R>,
  success: (result: R, value: T) => string,
  failure: string | undefined,
) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: call,
    onSuccess: async (result, value) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['users'] }),
        queryClient.invalidateQueries({ queryKey: ['services'] }),
      ]);
      toast({ title: success(result, value), variant: 'success' });
    },
    // Without `failure` the caller shows the refusal itself (in its dialog, which hides toasts from screen readers).
    onError: (error) => {
      if (failure) toast({ title: reasonOf(error) ?? failure, variant: 'error' });
    },
  });
}

export const useSwitchOrganisation = () =>
  useMembershipChange(
    (organisation: Membership) => switchOrganisation(organisation.id),
    (answer, organisation) => `Je bent nu ingelogd voor ${answer?.activeOrg?.label ?? organisation.label}.`,
    SWITCH_FAILED,
  );

export const useLeaveOrganisation = () =>
  useMembershipChange(
    (organisation: Membership) => leaveOrganisation(organisation.id),
    (_, organisation) => `Je hebt ${organisation.label} verlaten.`,
    undefined,
  );

export const useAcceptInvitation = () =>
  useMembershipChange(
    (invitation: PendingInvitation) => acceptInvitation(invitation.id),
    (answer, invitation) => `Je bent nu lid van ${answer?.organisation?.label ?? invitation.organisation.label}.`,
    ACCEPT_FAILED,
  );

export const useDeclineInvitation = () =>
  useMembershipChange(
    (invitation: PendingInvitation) => declineInvitation(invitation.id),
    () => 'Uitnodiging geweigerd.',
    DECLINE_FAILED,
  );
