import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork } from '../test-support';
import { usersApiAnswer } from '../test-users-api';
import { warmOverview } from './users-page-query';

const whoami = (overrides: Record<string, unknown>) => ({
  identity: { id: 'me', credentials: ['password', 'totp'] },
  isAdmin: true,
  aal2Required: true,
  authenticator_assurance_level: 'aal2',
  ...overrides,
});

async function warmed(me: Record<string, unknown> | undefined) {
  const calls = fakeNetwork((url, init) =>
    url.pathname === '/api/users/whoami'
      ? me
        ? { status: 200, body: me }
        : { status: 401, body: { error: { code: 401 } } }
      : usersApiAnswer([], url, init),
  );
  const client = new QueryClient();
  await warmOverview(client).catch(() => undefined);
  return { paths: calls.map((call) => `${call.url.pathname}${call.url.search}`), client };
}

afterEach(() => vi.unstubAllGlobals());

describe('warmOverview', () => {
  it("asks for an administrator's first page while the overview's code loads, and keeps both answers", async () => {
    const { paths, client } = await warmed(whoami({}));
    expect(paths).toEqual(['/api/users/whoami', '/api/users?page=1&per_page=25&sort=type']);
    expect(client.getQueryData(['users', 'list', { page: 0, sort: 'type', q: '' }])).toMatchObject({ total: 0 });
  });

  it('asks for no list for someone who may not see it yet, or not at all', async () => {
    expect((await warmed(whoami({ isAdmin: false }))).paths).toEqual(['/api/users/whoami']);
    expect((await warmed(whoami({ authenticator_assurance_level: 'aal1' }))).paths).toEqual(['/api/users/whoami']);
    expect((await warmed(undefined)).paths).toEqual(['/api/users/whoami']);
  });
});
