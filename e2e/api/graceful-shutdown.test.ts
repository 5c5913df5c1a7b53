import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBalancer } from '../support/balancer.js';
import { sharedTestDatabase } from '../support/database.js';
import { startPortaal, type Portaal } from '../support/portaal.js';

/**
 * An update restarts the processes one by one: a process told to stop (SIGTERM) must first say it is not ready, so
 * that the load balancer stops sending, finish what it is doing and exit cleanly; no client may see an error.
 */
let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
let processes: Portaal[] = [];
let balancer: Awaited<ReturnType<typeof startBalancer>>;

beforeAll(async () => {
  database = await sharedTestDatabase();
  const env = { DATABASE_URL: database.url, SHUTDOWN_DRAIN: '2s', SHUTDOWN_TIMEOUT: '15s' };
  // One after the other: both migrate the same new database.
  processes = [await startPortaal({ env }), await startPortaal({ env })];
  balancer = await startBalancer(processes);
});
afterAll(async () => {
  await balancer?.close();
  await Promise.all(processes.map((portaal) => portaal.stop()));
  database?.remove();
});

describe('a SIGTERM to one of two processes behind a load balancer', () => {
  it('drains and exits 0 within the bound while clients see only successful answers', async () => {
    const statuses: number[] = [];
    let running = true;
    const client = async () => {
      while (running) {
        // A new login flow is a database write, a whoami a read; both must keep working.
        for (const path of ['/self-service/login/api', '/health/alive']) {
          const target = path.startsWith('/health') ? `${processes[1]!.adminUrl}${path}` : `${balancer.url}${path}`;
          statuses.push((await fetch(target)).status);
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const [stopping, staying] = processes as [Portaal, Portaal];
    const signalledAt = Date.now();
    const exitCode = await stopping.terminate();
    const tookMs = Date.now() - signalledAt;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    running = false;
    await Promise.all(clients);

    expect(statuses.length).toBeGreaterThan(100);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(exitCode, stopping.output()).toBe(0);
    expect(tookMs).toBeGreaterThanOrEqual(2_000);
    expect(tookMs).toBeLessThan(15_000);
    expect((await fetch(`${staying.adminUrl}/health/ready`)).status).toBe(200);
    expect((await fetch(`${balancer.url}/self-service/login/api`)).status).toBe(200);
  });
});
