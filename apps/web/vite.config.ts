import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compressAssets } from './compress-assets';
import { loginBudget } from './login-budget';

/**
 * React Router's package points every bundler at its development build, which keeps its warnings; the production
 * build beside it drops them: about 0.5 kB less of the sign-in screen's JavaScript, gzipped.
 */
function reactRouterProductionBuild(): string {
  const development = createRequire(import.meta.url).resolve('react-router');
  const production = development.replace(/[/\\]development[/\\]index\.m?js$/, '/production/index.mjs');
  if (production === development || !existsSync(production))
    throw new Error(`React Router's production build is not where it was: ${production}`);
  return production;
}

// The portal is served by `portaal` itself; `npm run dev -w apps/web` proxies the APIs to a running `npm start`.
export default defineConfig(({ mode }) => ({
  plugins: [react(), loginBudget(), compressAssets()],
  resolve:
    mode === 'production' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProductionBuild() }] } : {},
  build: {
    outDir: 'dist',
    sourcemap: true,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      // zod's sources carry comments rollup cannot place; harmless, and noise in the output of `npm start`.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/self-service', '/sessions', '/schemas'].map((path) => [path, 'http://127.0.0.1:4455']),
    ),
  },
}));
