#!/usr/bin/env node
// Links the server's compiled modules (apps/server/dist, packages/*/dist, after `tsc -b`) and their dependencies into
// one ES module, apps/server/dist/portaal.mjs, which bin/portaal.js runs. Node loads one file instead of about 1,250
// modules, which halves the CPU of every start of `portaal serve` and of each CLI command
// (docs/architecture.md#one-file-to-start). tsc stays the compiler; esbuild only links.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = path.join(root, 'apps/server/dist/portaal.mjs');

/**
 * Our modules find files beside them with `new URL(…, import.meta.url)` (the web app's build, the demo catalogue, the
 * Ory configuration). In the bundle `import.meta.url` is the bundle's, so each of our modules gets its own URL,
 * written relative to the bundle: the tree stays movable as a whole, as the Docker image moves it.
 */
const ownModuleUrls = {
  name: 'own-module-urls',
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/](apps|packages)[\\/][^\\/]+[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const relative = path.relative(path.dirname(outfile), args.path).split(path.sep).join('/');
      const own = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', own), loader: 'js' };
    });
  },
};

await build({
  entryPoints: [path.join(root, 'apps/server/dist/cli.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native add-ons find their binaries next to their own package, and pg-native is optional: they stay packages.
  external: ['better-sqlite3', '@node-rs/argon2', '@node-rs/bcrypt', 'pg-native'],
  // CommonJS dependencies inside an ES module still call require() for node's own modules and read __dirname.
  banner: {
    js: [
      "import { createRequire as __portaalRequire } from 'node:module';",
      "import { fileURLToPath as __portaalPath } from 'node:url';",
      'const require = __portaalRequire(import.meta.url);',
      'const __filename = __portaalPath(import.meta.url);',
      "const __dirname = __portaalPath(new URL('.', import.meta.url));",
    ].join('\n'),
  },
  // Without spaces and comments: 6 instead of 9 MB for V8 to read and keep, so about 15 MiB less memory when idle.
  // (minifySyntax broke oidc-provider; names stay, for stack traces.)
  minifyWhitespace: true,
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
  plugins: [ownModuleUrls],
});
