import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where Ory Elements' screens live: its own default UI locations (`/ui/login`, `/ui/settings`, …). */
const UI_PREFIX = '/ui/';

const HARNESS_ROOT = fileURLToPath(new URL('../ory-elements/', import.meta.url));

/**
 * The provider's settings that send browsers to the harness at `origin`: Kratos' `selfservice.flows.<flow>.ui_url`
 * and `selfservice.default_browser_return_url` (docs/kratos-compatibility.md#scope-and-version), and the origin as
 * the public URL, so that flows, cookies and redirects name the one origin the browser sees.
 */
export function oryElementsEnv(origin: string): Record<string, string> {
  const ui = (screen: string) => `${origin}${UI_PREFIX}${screen}`;
  return {
    PUBLIC_URL: origin,
    REGISTRATION_ENABLED: 'true',
    SELFSERVICE_FLOWS_LOGIN_UI_URL: ui('login'),
    SELFSERVICE_FLOWS_REGISTRATION_UI_URL: ui('registration'),
    SELFSERVICE_FLOWS_RECOVERY_UI_URL: ui('recovery'),
    SELFSERVICE_FLOWS_VERIFICATION_UI_URL: ui('verification'),
    SELFSERVICE_FLOWS_SETTINGS_UI_URL: ui('settings'),
    SELFSERVICE_FLOWS_ERROR_UI_URL: ui('error'),
    SELFSERVICE_DEFAULT_BROWSER_RETURN_URL: ui('welcome'),
  };
}

/** Where a journeys run keeps one build of the harness for all its files (scripts/browser-journeys.mjs). */
const SHARED_BUILD = 'ORY_ELEMENTS_BUILD_DIR';

/**
 * The harness page built for deployment, as a folder. In a journeys run that names a shared folder, the first file to
 * ask builds into it while the others wait (a build costs Vite about 8 s of CPU); otherwise each call builds anew.
 */
export async function buildOryElementsHarness(): Promise<string> {
  const shared = process.env[SHARED_BUILD];
  if (!shared) return buildInto(mkdtempSync(path.join(os.tmpdir(), 'ory-elements-')));
  const result = path.join(shared, 'result.json');
  try {
    mkdirSync(path.join(shared, 'building'));
  } catch {
    return waitForBuild(result);
  }
  const out = path.join(shared, 'out');
  try {
    await buildInto(out);
    writeFileSync(result, JSON.stringify({ dir: out }));
    return out;
  } catch (error) {
    writeFileSync(result, JSON.stringify({ failure: String(error) }));
    throw error;
  }
}

async function waitForBuild(result: string): Promise<string> {
  while (!existsSync(result)) await new Promise((resolve) => setTimeout(resolve, 200));
  const { dir, failure } = JSON.parse(readFileSync(result, 'utf8')) as { dir?: string; failure?: string };
  if (!dir) throw new Error(`building the Ory Elements harness failed in another journey: ${failure}`);
  return dir;
}

/**
 * Builds the harness page (e2e/ory-elements, its own Vite configuration) into `outDir`. Vite runs in a process of its
 * own with `NODE_ENV=production`, as a site is built for deployment: the test runner's `NODE_ENV=test` would make a
 * development build.
 */
async function buildInto(outDir: string): Promise<string> {
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
  const config = path.join(HARNESS_ROOT, 'vite.config.ts');
  // `runner` loads the configuration without writing a bundled copy of it beside the file.
  const args = [vite, 'build', HARNESS_ROOT, '--config', config, '--configLoader', 'runner', '--outDir', outDir];
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`building the Ory Elements harness failed (${code}):\n${output}`);
  return outDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface HarnessOrigin {
  /** `http://127.0.0.1:<port>`, listening already: the provider's `PUBLIC_URL`. */
  origin: string;
  /** Starts answering: the built harness from `dir`, everything else from the provider's public listener. */
  serve(dir: string, upstream: string): void;
  /** Stops listening and removes the built harness. */
  close(): Promise<void>;
}

/**
 * One origin for the harness and the provider, as a deployment of a Kratos UI has it (Ory's own examples put the UI
 * and a proxy to Kratos' public API on one origin, so the cookies reach both): `GET /ui/…` answers the built harness
 * (a file of it, else its page), everything else goes unchanged to the provider's public listener. It listens at
 * once, on a free port, so that the provider can be started with its address; until `serve` it answers 503.
 */
export async function openHarnessOrigin(): Promise<HarnessOrigin> {
  let served: { dir: string; target: URL } | undefined;
  const server = http.createServer((request, response) => {
    if (!served) {
      response.writeHead(503);
      response.end();
      return;
    }
    const { dir, target } = served;
    const pathname = new URL(request.url ?? '/', 'http://harness').pathname;
    if ((request.method === 'GET' || request.method === 'HEAD') && pathname.startsWith(UI_PREFIX)) {
      // The built files have plain names; anything else under /ui/ is a screen, answered by the page.
      const file = path.join(dir, path.normalize(pathname.slice(UI_PREFIX.length)));
      const found = file.startsWith(dir + path.sep) && statSync(file, { throwIfNoEntry: false })?.isFile();
      const page = found ? file : path.join(dir, 'index.html');
      response.writeHead(200, {
        'content-type': TYPES[path.extname(page)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      if (request.method === 'HEAD') response.end();
      else createReadStream(page).pipe(response);
      return;
    }
    const forwarded = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    serve(dir, upstream) {
      served = { dir, target: new URL(upstream) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          // A shared build is the run's, removed when the run ends.
          if (served && !process.env[SHARED_BUILD]) rmSync(served.dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
