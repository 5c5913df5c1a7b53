import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { LongestFirst } from './e2e/support/longest-first';

// `unit` runs next-to-code tests in-process, `web` the web app's component tests in jsdom; `integration` talks to a
// running `portaal` over HTTP (started by scripts/integration.mjs on SQLite and on a throwaway PostgreSQL cluster);
// `browser` drives Chromium through the product.
export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    // Read from here only (vitest 3): orders the integration files and the journeys.
    sequence: { sequencer: LongestFirst },
    // Before any project's tests: better-sqlite3 compiled, for `npx vitest` run before a build.
    globalSetup: ['./e2e/support/sqlite-compiled.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'deploy/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**', '**/dist/**', 'apps/web/**'],
        },
      },
      {
        // The web app imports no server package, so it resolves packages normally (no `source` condition, which
        // some libraries publish without their sources).
        plugins: [react()],
        test: {
          name: 'web',
          environment: './apps/web/src/test-environment.ts',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [
            'packages/*/src/**/*.integration.test.ts',
            'apps/*/src/**/*.integration.test.ts',
            'e2e/api/**/*.test.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The Users API files once more with the Ory adapter, against Kratos and Keto played by a second `portaal`;
        // run with the SQLite files, in the same workers (scripts/integration.mjs).
        extends: true,
        test: {
          name: 'integration-ory',
          include: ['e2e/api/users-api*.test.ts', 'e2e/api/catalogue.test.ts'],
          env: { TEST_IDENTITY_BACKEND: 'ory' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Journeys in a real Chromium against a real `portaal` (scripts/browser-journeys.mjs).
        extends: true,
        test: {
          name: 'browser',
          include: ['e2e/browser/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
