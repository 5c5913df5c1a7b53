import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The page of Ory's React components for e2e/browser/ory-elements.test.ts, built by e2e/support/ory-elements.ts into
// a temporary directory and served at Ory Elements' default UI locations (`/ui/…`).
export default defineConfig({
  base: '/ui/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    emptyOutDir: true,
    reportCompressedSize: false,
    // Ory Elements carries all of its translations.
    chunkSizeWarningLimit: 6_000,
    rollupOptions: {
      // Ory Elements' client modules start with 'use client', which a browser bundle has no use for.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
