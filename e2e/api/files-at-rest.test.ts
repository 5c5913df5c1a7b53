import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginWithPassword } from '../support/flows.js';
import { newBrowser } from '../support/ory.js';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { DEMO_PASSWORD, portaalCli } from '../support/portal-users.js';

// docs/security.md#7-password-storage: the data directory holds password hashes, authenticator-app secrets, signing
// keys and the cookie secret, so the portal keeps it to its own user whatever umask it is started with.
let portaal: Portaal;
let workDir: string;
let dataDir: string;
let umask: number;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'files-at-rest-'));
  dataDir = path.join(workDir, 'data');
  // As a shell with the usual umask leaves it, and as an earlier version left it.
  mkdirSync(dataDir, { mode: 0o755 });
  chmodSync(dataDir, 0o755);
  umask = process.umask(0o022);
  portaal = await startPortaal({ args: ['--demo'], env: { DATA_DIR: dataDir, OIDC_JWKS: '' } });
});
afterAll(async () => {
  await portaal?.stop();
  process.umask(umask);
  rmSync(workDir, { recursive: true, force: true });
});

const mode = (file: string) => statSync(file).mode & 0o777;

describe('files at rest', () => {
  it('keeps the data directory 0700 and every file the portal writes 0600, started with umask 022', async () => {
    // A sign-in writes a session, so the database and its journal have been written to.
    expect(
      (await loginWithPassword(newBrowser(portaal.publicUrl), 'analist@dego.nl', DEMO_PASSWORD)).session,
    ).toBeDefined();
    const backup = path.join(workDir, 'backup.sqlite');
    if (process.env.TEST_DATABASE !== 'postgres') {
      expect(portaalCli(portaal, ['backup', backup]).status).toBe(0);
      expect(mode(backup).toString(8)).toBe('600');
    }
    expect(mode(dataDir).toString(8)).toBe('700');
    const files = readdirSync(dataDir);
    expect(files).toContain('oidc-jwks.json');
    for (const file of files) expect(`${file} ${mode(path.join(dataDir, file)).toString(8)}`).toBe(`${file} 600`);
  });
});
