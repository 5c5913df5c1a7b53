import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../support/free-port.js';
import { identityApi } from '../support/ory.js';
import { PORTAAL_ARGS, processEnv, startPortaal, type Portaal } from '../support/portaal.js';

// docs/operations.md#a-full-disk: the portal's SQLite database on a 30 MiB tmpfs that fills up. Writes answer 503 with
// Retry-After (a Dutch message on /api), one log line names the cause, readiness answers 503, no write that was
// acknowledged is lost, and everything works again once there is room. Mounting needs root, as CI has; SQLite only.
const canMount = process.getuid?.() === 0 && process.env.TEST_DATABASE !== 'postgres';
let mountPoint: string;
let portaal: Portaal;

beforeAll(async () => {
  if (!canMount) return;
  mountPoint = mkdtempSync(path.join(os.tmpdir(), 'disk-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=30m', 'tmpfs', mountPoint]);
  mkdirSync(path.join(mountPoint, 'data'));
  portaal = await startPortaal({ env: { DATA_DIR: path.join(mountPoint, 'data') } });
});
afterAll(async () => {
  if (!canMount) return;
  await portaal?.stop();
  execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the file system with one file until it is full; answers its path. */
function fill(): string {
  const file = path.join(mountPoint, 'vulling');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

const newIdentity = (email: string) =>
  fetch(`${portaal.adminUrl}/admin/identities`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ schema_id: 'default', traits: { email, name: { first: 'Vol', last: 'Schijf' } } }),
  });

describe.runIf(canMount)('a full disk under the SQLite database', () => {
  it('answers 503 with the cause, loses no acknowledged write and recovers once there is room', async () => {
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const email = `voor-${i}@schijf.nl`;
      if ((await newIdentity(email)).status === 201) acknowledged.push(email);
    }
    const filler = fill();
    const refused = [];
    for (let i = 0; i < 20 && refused.length < 3; i += 1) {
      const email = `tijdens-${i}@schijf.nl`;
      const answer = await newIdentity(email);
      if (answer.status === 201) acknowledged.push(email);
      else refused.push({ status: answer.status, retryAfter: answer.headers.get('retry-after') });
    }
    expect(refused.length, 'writes are refused on a full disk').toBeGreaterThan(0);
    for (const answer of refused) expect(answer).toEqual({ status: 503, retryAfter: expect.any(String) });
    const api = await fetch(`${portaal.publicUrl}/api/users/password-recovery?email=niemand@schijf.nl`);
    expect(api.status).toBe(503);
    expect(await api.text()).toContain('De dienst is even niet beschikbaar');
    const ready = await fetch(`${portaal.adminUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).errors.storage).toMatch(/full|disk/i);
    const lines = portaal
      .output()
      .split('\n')
      .filter((line) => line.includes('storage full or failing'));
    expect(lines.length, 'one log line names the cause').toBe(1);
    expect(portaal.output()).not.toContain('cannot rollback');

    rmSync(filler);
    await expect.poll(async () => (await newIdentity('na@schijf.nl')).status, { timeout: 10_000 }).toBe(201);
    await expect
      .poll(async () => (await fetch(`${portaal.adminUrl}/health/ready`)).status, { timeout: 20_000, interval: 500 })
      .toBe(200);
    const { data: stored } = await identityApi(portaal.adminUrl).listIdentities({ pageSize: 1000 });
    const emails = new Set(stored.map((identity) => (identity.traits as { email: string }).email));
    for (const email of acknowledged) expect(emails.has(email), `${email} was acknowledged`).toBe(true);
  }, 60_000);

  it('says in one line why it cannot start on a full disk', async () => {
    const [port, adminPort] = await freePorts(2);
    const filler = fill();
    try {
      const started = spawnSync(process.execPath, [...PORTAAL_ARGS, 'serve'], {
        env: {
          ...processEnv(),
          DATA_DIR: path.join(mountPoint, 'nieuw'),
          PORT: String(port),
          ADMIN_PORT: String(adminPort),
        },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(started.status).not.toBe(0);
      expect(started.stderr).toMatch(/^Fout: er kan niet naar de schijf worden geschreven/m);
      expect(started.stderr).not.toMatch(/^\s+at /m);
    } finally {
      rmSync(filler);
    }
  });
});
