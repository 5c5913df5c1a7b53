import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';

// docs/operations.md, 'SQLite and a second process': SQLite waits for another process' write lock synchronously,
// which would freeze the whole server for as long as the lock is held. The portal waits in short attempts instead,
// so that it keeps answering; a write that cannot get the lock within 5 s answers 503 with Retry-After.
const sqlite = process.env.TEST_DATABASE !== 'postgres';
let portaal: Portaal;

beforeAll(async () => {
  if (sqlite) portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(sqlite)('a write lock held by another process for 12 s', () => {
  it('keeps /health/alive fast, answers writes 503 with Retry-After, turns readiness 503, recovers', async () => {
    const other = new Database(path.join(portaal.dataDir, 'portaal.sqlite'));
    other.exec('begin immediate');
    const heldFrom = Date.now();
    const alive: number[] = [];
    const sampling = (async () => {
      while (Date.now() - heldFrom < 12_000) {
        const started = performance.now();
        expect((await fetch(`${portaal.adminUrl}/health/alive`)).status).toBe(200);
        alive.push(performance.now() - started);
        await sleep(200);
      }
    })();
    try {
      // Creating a flow writes its row.
      const write = fetch(`${portaal.publicUrl}/self-service/login/api`);
      await expect
        .poll(async () => (await fetch(`${portaal.adminUrl}/health/ready`)).status, { timeout: 5_000, interval: 250 })
        .toBe(503);
      const refused = await write;
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      await sampling;
    } finally {
      other.exec('rollback');
      other.close();
    }
    // Frozen, it would take the lock's whole 12 s; each wait for the lock blocks at most 20 ms. The bound leaves room
    // for a loaded machine: a test does not time the server (bench/ does), it shows the loop is never held.
    expect(Math.max(...alive), `/health/alive took ${alive.map(Math.round).join(', ')} ms`).toBeLessThan(1_000);
    const sorted = [...alive].sort((a, b) => a - b);
    console.info(
      `/health/alive during the lock: ${alive.length} answers, median ${Math.round(sorted[sorted.length >> 1]!)} ms, ` +
        `slowest ${Math.round(sorted.at(-1)!)} ms`,
    );
    expect((await fetch(`${portaal.publicUrl}/self-service/login/api`)).status).toBe(200);
    expect((await fetch(`${portaal.adminUrl}/health/ready`)).status).toBe(200);
  }, 30_000);
});
