import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, uniqueEmail } from '../support/identities.js';
import { newNativeClient } from '../support/ory.js';
import { PORTAAL_ARGS, startPortaal, type Portaal } from '../support/portaal.js';

/**
 * A backup taken with `portaal backup` while accounts are being created restores into a fresh data directory, and
 * every account acknowledged before the backup began signs in there. (A plain copy of the SQLite file lost
 * acknowledged accounts under the same load: what sits in the write-ahead log is not in the file yet.)
 */
const onPostgres = process.env.TEST_DATABASE === 'postgres';
let portaal: Portaal;
let restored: Portaal | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
  await restored?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs a CLI command without blocking this process, so the writers keep writing meanwhile. */
function cli(env: Record<string, string>, args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...PORTAAL_ARGS, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (status) => resolve({ status, output }));
  });
}

async function createAccount(): Promise<string | undefined> {
  const email = uniqueEmail('backup');
  const response = await fetch(`${portaal.adminUrl}/admin/identities`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      schema_id: 'default',
      traits: { email, name: { first: 'Back', last: 'Up' } },
      credentials: { password: { config: { password: STRONG_PASSWORD } } },
    }),
  });
  return response.status === 201 ? email : undefined;
}

async function signsIn(publicUrl: string, email: string): Promise<boolean> {
  const client = newNativeClient(publicUrl);
  const flow = await client.createNativeLoginFlow({});
  try {
    const done = await client.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'password', identifier: email, password: STRONG_PASSWORD, csrf_token: '' },
    });
    return Boolean(done.session_token);
  } catch {
    return false;
  }
}

describe.runIf(!onPostgres)('portaal backup and restore on SQLite', () => {
  it('restores a backup taken during writes; every account acknowledged before it signs in', async () => {
    const acknowledged: string[] = [];
    let writing = true;
    const writer = async () => {
      while (writing) {
        const email = await createAccount();
        if (email) acknowledged.push(email);
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const backupDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-backup-'));
    dirs.push(backupDir);
    const backupFile = path.join(backupDir, 'portaal-backup.sqlite');
    const before = [...acknowledged];
    const made = await cli(portaal.env, ['backup', backupFile]);
    writing = false;
    await Promise.all(writers);
    expect(made.status, made.output).toBe(0);
    expect(made.output).toContain('Back-up gemaakt en gecontroleerd');
    expect(before.length).toBeGreaterThan(5);
    expect((await cli(portaal.env, ['backup', backupFile])).output).toContain('bestaat al');

    const freshDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-restored-'));
    dirs.push(freshDir);
    const env = { ...portaal.env, DATA_DIR: freshDir };
    const put = await cli(env, ['restore', backupFile]);
    expect(put.status, put.output).toBe(0);
    expect((await cli(env, ['restore', backupFile])).output).toContain('zet een back-up alleen terug in een lege');

    restored = await startPortaal({ env: { DATA_DIR: freshDir } });
    const failed: string[] = [];
    for (const email of before) if (!(await signsIn(restored.publicUrl, email))) failed.push(email);
    expect(failed).toEqual([]);
  });
});

describe.runIf(onPostgres)('portaal backup on PostgreSQL', () => {
  it('points to pg_dump instead', async () => {
    const answer = await cli(portaal.env, ['backup', path.join(os.tmpdir(), 'nergens.sqlite')]);
    expect(answer.status).toBe(1);
    expect(answer.output).toContain('pg_dump');
  });
});
