import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from './App';
import { fakeNetwork, renderAt } from './test-support';

afterEach(() => vi.unstubAllGlobals());

describe('the routes', () => {
  it.each(['/admin-login', '/admin', '/beheer/admin-inloggen'])(
    'give any path containing "admin" the administrator text of the sign-in: %s',
    async (path) => {
      fakeNetwork((url) =>
        url.pathname === '/api/users/whoami' ? { status: 401, body: { error: { id: 'session_inactive' } } } : undefined,
      );
      renderAt(path, appRoutes);
      expect(await screen.findByText('Hier kunt u inloggen voor het Administrator dashboard.')).toBeInTheDocument();
    },
  );

  it('say that another unknown path does not exist', async () => {
    fakeNetwork(() => undefined);
    renderAt('/bestaat-niet', appRoutes);
    expect(await screen.findByRole('heading', { level: 1 })).not.toHaveTextContent('Welkom');
    expect(screen.queryByText('Hier kunt u inloggen voor het Administrator dashboard.')).toBeNull();
  });
});
