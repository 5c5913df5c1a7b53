import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compressAssets } from './compress-assets';
import { loginBudget } from './login-budget';

// The portal is served by `portaal` itself; `npm run dev -w apps/web` proxies the APIs to a running `npm start`.
export default defineConfig({
  plugins: [react(), loginBudget(), compressAssets()],
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
});
