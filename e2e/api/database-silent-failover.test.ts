import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../support/database.js';
import { startSilentRelay, type SilentRelay } from '../support/silent-relay.js';
import { startPortaal, type Portaal } from '../support/portaal.js';

/**
 * docs/operations.md#database-outages: a failover or a network partition can leave the connections silent, with no
 * reset, and TCP alone notices only after about 15 minutes. Two processes under load reach PostgreSQL through a
 * relay that stops forwarding for 20 s: both answer 503 with Retry-After meanwhile, readiness follows, every answer
 * is 2xx again within 10 s of the relay forwarding, and they stop cleanly afterwards. PostgreSQL pass only.
 */
const onPostgres = process.env.TEST_DATABASE === 'postgres';
let relay: SilentRelay;
let portals: Portaal[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  const direct = new URL((await testDatabaseUrl())!);
  relay = await startSilentRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
  const throughRelay = new URL(direct.href);
  throughRelay.hostname = '127.0.0.1';
  throughRelay.port = String(relay.port);
  const env = { DATABASE_URL: throughRelay.href };
  portals = [await startPortaal({ env }), await startPortaal({ env })];
});
afterAll(async () => {
  await Promise.all(portals.map((portaal) => portaal.stop()));
  await relay?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  at: number;
  status: number;
  retryAfter: string | null;
}

/** Requests that need the database (a new login flow writes a row), from each process, until `until`. */
async function load(portaal: Portaal, until: () => boolean, answers: Answer[]) {
  while (!until()) {
    const response = await fetch(`${portaal.publicUrl}/self-service/login/api`, {
      signal: AbortSignal.timeout(15_000),
    });
    answers.push({ at: Date.now(), status: response.status, retryAfter: response.headers.get('retry-after') });
    await response.arrayBuffer();
    await sleep(100);
  }
}

describe.runIf(onPostgres)('connections to PostgreSQL that go silent', () => {
  it('answer 503 with Retry-After while silent and recover within 10 s of the database being back', async () => {
    const answers: Answer[][] = [[], []];
    let stop = false;
    const loads = portals.map((portaal, index) => load(portaal, () => stop, answers[index]!));
    await sleep(2_000);
    const silentFrom = Date.now();
    relay.silence();
    await expect
      .poll(async () => (await fetch(`${portals[0]!.adminUrl}/health/ready`)).status, { timeout: 8_000 })
      .toBe(503);
    expect((await fetch(`${portals[1]!.adminUrl}/health/ready`)).status).toBe(503);
    await sleep(Math.max(0, 20_000 - (Date.now() - silentFrom)));
    const restoredAt = Date.now();
    relay.restore();
    await sleep(14_000);
    stop = true;
    await Promise.all(loads);

    for (const [index, list] of answers.entries()) {
      // From 2 s on: the requests under way when the silence began are answered too, once the silence limit (5 s)
      // ends their connection. They were answered 500 until the query's own error counted as an outage.
      const during = list.filter((a) => a.at > silentFrom + 2_000 && a.at < restoredAt);
      expect(during.length, `process ${index + 1} answered during the silence`).toBeGreaterThan(0);
      // With a wrong status, the process's errors say which error it did not know for an outage.
      const errors = () =>
        portals[index]!.output()
          .split('\n')
          .filter((line) => line.includes('"level":50'))
          .slice(-5)
          .join('\n');
      for (const answer of during) {
        const when = `process ${index + 1}, ${answer.at - silentFrom} ms into the silence`;
        expect([answer.status, answer.retryAfter !== null], `${when}; its errors:\n${errors()}`).toEqual([503, true]);
      }
      const after = list.filter((a) => a.at > restoredAt + 10_000);
      expect(after.length).toBeGreaterThan(0);
      expect(after.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
      expect((await fetch(`${portals[index]!.adminUrl}/health/ready`)).status).toBe(200);
    }
    for (const portaal of portals) expect(await portaal.terminate()).toBe(0);
  }, 90_000);
});
