#!/usr/bin/env node
// Installs what the test run needs from Debian when it is missing: the PostgreSQL server binaries for the throwaway
// cluster of the integration tests, Chromium's headless shell (`chromium-headless-shell`) for the browser journeys,
// nginx (Debian's `nginx` package, built with the auth_request module) for the forward-authentication journey and the
// check of the example configuration, Apache httpd with mod_auth_openidc (`apache2`, `libapache2-mod-auth-openidc`)
// for the journey of a service that signs in through the portal's OpenID Connect provider, and the Jsonnet
// interpreter (`jsonnet`) that renders the Ory login web_hook's template. CI starts from a clean machine, so this must
// never be a manual step.
import { execFileSync } from 'node:child_process';
import { findApache, findApacheModule } from './lib/apache.mjs';
import { findHeadlessChromium } from './lib/chromium.mjs';
import { findJsonnet } from './lib/jsonnet.mjs';
import { findNginx } from './lib/nginx.mjs';
import { findPostgresBin } from './lib/postgres-bin.mjs';

function run(command, args) {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? [command, args] : ['sudo', ['-n', command, ...args]];
  execFileSync(cmd, argv, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

function aptInstall(packages) {
  console.log(`[ensure-test-deps] missing on this machine, installing from Debian: ${packages.join(', ')}`);
  try {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages]);
  } catch (error) {
    console.error(`[ensure-test-deps] could not install ${packages.join(', ')}: ${error.message}`);
    process.exit(1);
  }
}

const missing = [];
if (!findPostgresBin()) missing.push('postgresql');
if (!findHeadlessChromium()) missing.push('chromium-headless-shell');
if (!findNginx()) missing.push('nginx');
if (!findApache()) missing.push('apache2');
if (!findApacheModule('auth_openidc')) missing.push('libapache2-mod-auth-openidc');
if (!findJsonnet()) missing.push('jsonnet');
if (missing.length > 0) aptInstall(missing);
