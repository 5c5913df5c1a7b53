#!/usr/bin/env node
// Links the server's compiled modules (apps/server/dist, packages/*/dist, after `tsc -b`) and their dependencies into
// one CommonJS file, apps/server/dist/portaal.cjs, which bin/portaal.js runs, and makes V8's code cache for it. Node
// loads one file instead of about 1,250 modules, which halves the CPU of every start of `portaal serve` and of each
// CLI command; the cache saves most of the compiling that is left (docs/architecture.md#one-file-to-start). tsc stays
// the compiler; esbuild only links.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { V8_FLAGS } from '../apps/server/bin/load-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = path.join(root, 'apps/server/dist/portaal.cjs');

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
      const own = `new URL(${JSON.stringify(relative)}, __portaalUrl).href`;
      return { contents: source.replaceAll('import.meta.url', own), loader: 'js' };
    });
  },
};

/**
 * node-postgres asks at load whether it runs in a Cloudflare Worker by reading the global `Response`, which on Node 20
 * loads Node's whole fetch implementation (undici): about 60 ms of CPU at every start, on SQLite too. The bundle runs
 * only on Node, so the question is answered here. A node-postgres that words it otherwise fails the build.
 */
const nodePostgresOnNode = {
  name: 'node-postgres-on-node',
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]pg[\\/]lib[\\/]stream\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const question = 'if (isCloudflareRuntime()) {';
      if (!source.includes(question)) throw new Error(`${args.path} no longer asks \`${question}\`: look again`);
      return { contents: source.replace(question, 'if (false) {'), loader: 'js' };
    });
  },
};

await build({
  entryPoints: [path.join(root, 'apps/server/dist/cli.js')],
  outfile,
  bundle: true,
  platform: 'node',
  // CommonJS, because Node 20 can give V8's code cache only to scripts (vm.Script), not to ES modules.
  format: 'cjs',
  target: 'node20',
  // Native add-ons find their binaries next to their own package, and pg-native is optional: they stay packages.
  external: ['better-sqlite3', '@node-rs/argon2', '@node-rs/bcrypt', 'pg-native'],
  // The bundle's own URL, for the modules above and for `import.meta.url` in dependencies.
  define: { 'import.meta.url': '__portaalUrl' },
  banner: { js: "const __portaalUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Without spaces and comments: 6 instead of 9 MB for V8 to read and keep, so about 15 MiB less memory when idle.
  // (minifySyntax broke oidc-provider; names stay, for stack traces.)
  minifyWhitespace: true,
  sourcemap: 'linked',
  legalComments: 'linked',
  logLevel: 'warning',
  plugins: [ownModuleUrls, nodePostgresOnNode],
});

// The cache is made in a process with the deploy files' V8 flags: V8 refuses a cache made under other flags. That
// process starts the server once; what it prints is shown only when it fails.
const loader = pathToFileURL(path.join(root, 'apps/server/bin/load-bundle.js')).href;
const made = spawnSync(
  process.execPath,
  [...V8_FLAGS, '--input-type=module', '-e', `import { writeCodeCache } from '${loader}'; await writeCodeCache();`],
  { encoding: 'utf8', timeout: 120_000 },
);
if (made.status !== 0) {
  console.error(`The code cache could not be made:\n${made.stdout}${made.stderr}${made.error ?? ''}`);
  process.exit(1);
}
