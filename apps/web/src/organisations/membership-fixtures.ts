import type { Membership, PendingInvitation } from '../api/users-api';
import { fakeNetwork } from '../test-support';
import { whoamiOf } from '../test-users-api';

// Test data for people in several organisations: Bea, home in Voorbeeldstad (administrator), also in DEGO.

export const VOORBEELDSTAD: Membership = {
  id: 'voorbeeldstad',
  label: 'Gemeente Voorbeeldstad',
  isAdmin: true,
  requiresAal2: true,
  home: true,
  active: true,
};
export const DEGO: Membership = {
  id: 'dego',
  label: 'DEGO',
  isAdmin: false,
  requiresAal2: false,
  home: false,
  active: false,
};

export const invitationFrom = (
  id: string,
  label: string,
  extra: Partial<PendingInvitation> = {},
): PendingInvitation => ({
  id: `inv-${id}`,
  organisation: { id, label },
  invitedBy: `beheerder@${id}.nl`,
  isAdmin: false,
  dataRoles: [{ roleId: 'analyse', label: 'Analyse' }],
  expiresAt: '2026-11-26T12:00:00.000Z',
  ...extra,
});

type Handler = Parameters<typeof fakeNetwork>[0];

/**
 * A Users API that keeps Bea's memberships and invitations and changes them as the real one does: switching, accepting,
 * declining and leaving. `refuse` answers matching calls with an error instead. Returns the calls and the state.
 */
export function membershipServer(
  options: {
    organisations?: Membership[];
    invitations?: PendingInvitation[];
    refuse?: (url: URL, init: RequestInit | undefined) => { status: number; body?: unknown } | undefined;
    extra?: Handler;
  } = {},
) {
  const state = {
    organisations: (options.organisations ?? [VOORBEELDSTAD, DEGO]).map((o) => ({ ...o })),
    invitations: [...(options.invitations ?? [])],
  };
  const active = () => state.organisations.find((o) => o.active);
  const whoami = () => ({
    ...whoamiOf({
      activeOrg: active() ? { id: active()!.id, label: active()!.label, subdivisions: [] } : null,
      isAdmin: active()?.isAdmin ?? false,
    }),
    homeOrganisation: state.organisations.find((o) => o.home)?.id ?? null,
    organisations: state.organisations,
    invitations: state.invitations,
  });
  const calls = fakeNetwork((url, init) => {
    const method = init?.method ?? 'GET';
    const refused = method !== 'GET' ? options.refuse?.(url, init) : undefined;
    if (refused) return refused;
    const answer = options.extra?.(url, init);
    if (answer) return answer;
    const path = url.pathname;
    if (path === '/api/users/whoami') return { status: 200, body: whoami() };
    if (path === '/api/config') return { status: 200, body: { title: 'Datavoorzieningen VNG', description: 'x' } };
    if (path === '/api/users/admins') return { status: 200, body: [] };
    if (path === '/api/users/active-organisation' && method === 'PUT') {
      const wanted = JSON.parse(String(init?.body)).organisation as string;
      const target = state.organisations.find((o) => o.id === wanted);
      if (!target) return { status: 404, body: { error: { id: 'not_member', message: 'Geen lid.' } } };
      for (const o of state.organisations) o.active = o === target;
      return { status: 200, body: { activeOrg: { id: target.id, label: target.label } } };
    }
    const invitation = /^\/api\/invitations\/([^/]+)\/(accept|decline)$/.exec(path);
    if (invitation && method === 'POST') {
      const found = state.invitations.find((i) => i.id === invitation[1]);
      if (!found) return { status: 404, body: { error: { id: 'invitation_not_found' } } };
      state.invitations = state.invitations.filter((i) => i !== found);
      if (invitation[2] === 'decline') return { status: 204 };
      state.organisations.push({
        ...found.organisation,
        isAdmin: found.isAdmin,
        requiresAal2: false,
        home: false,
        active: false,
      });
      state.organisations.sort((a, b) => a.label.localeCompare(b.label));
      return { status: 200, body: { organisation: found.organisation } };
    }
    const leaving = /^\/api\/users\/organisations\/([^/]+)$/.exec(path);
    if (leaving && method === 'DELETE') {
      const left = state.organisations.find((o) => o.id === leaving[1]);
      if (!left) return { status: 404, body: { error: { id: 'not_member' } } };
      state.organisations = state.organisations.filter((o) => o !== left);
      if (left.active) for (const o of state.organisations) o.active = o.home;
      return { status: 204 };
    }
    return undefined;
  });
  return { calls, state };
}
