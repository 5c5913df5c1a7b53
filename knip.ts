import type { KnipConfig } from 'knip';

// Dead-code check run by `npm test`: unused files, exports and dependencies fail the run.
const config: KnipConfig = {
  workspaces: {
    '.': {
      // e2e/ory-elements is the page of Ory's React components that a journey builds with Vite (e2e/support).
      entry: [
        'scripts/**/*.mjs',
        'bench/**/*.mjs',
        'bench/*.ts',
        'e2e/**/*.test.ts',
        'deploy/**/*.test.ts',
        'e2e/ory-elements/main.tsx',
        'e2e/ory-elements/vite.config.ts',
      ],
      project: ['scripts/**/*.mjs', 'bench/**/*.{mjs,ts}', 'e2e/**/*.{ts,tsx}'],
      // scripts/coverage.mjs names vitest's coverage provider on the command line (--coverage.provider=v8).
      ignoreDependencies: ['@vitest/coverage-v8'],
    },
    'apps/server': {
      // bin/portaal.js runs the bundle that scripts/bundle-server.mjs links from src/cli.ts.
      entry: ['src/cli.ts', 'src/**/*.test.ts'],
      project: ['src/**/*.ts'],
    },
    'apps/web': {
      entry: ['src/**/*.test.{ts,tsx}'],
      project: ['src/**/*.{ts,tsx,css}', '*.ts'],
      // The root Vitest configuration runs the web project in jsdom.
      ignoreDependencies: ['jsdom'],
    },
    'packages/*': {
      // Migrations are read as namespaces ({ up, down }) by each package's migrator.
      entry: ['src/**/*.test.ts', 'src/db/migrations/*.ts'],
      project: ['src/**/*.ts'],
    },
  },
  // System tools: the deployment test's where it is installed, and the disk-full test's tmpfs (util-linux, as root).
  ignoreBinaries: ['systemd-analyze', 'mount', 'umount'],
  // A type used by another exported type of its file is part of that file's public shape.
  ignoreExportsUsedInFile: { interface: true, type: true },
  // The NL Design System components come in through CSS @import.
  compilers: {
    css: (text: string) =>
      [...text.matchAll(/@import\s+["']([^"']+)["']/g)].map(([, from]) => `import '${from}';`).join('\n'),
  },
};

export default config;
