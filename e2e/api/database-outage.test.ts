import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrowawayPostgres } from '../../scripts/lib/throwaway-postgres.mjs';
import { createPasswordIdentity } from '../support/identities.js';
import { identityApi, type Browser } from '../support/ory.js';
import { api, signInAtAal1 } from '../support/portal-users.js';
import { startPortaal, type Portaal } from '../support/portaal.js';

/**
 * A PostgreSQL server may end any connection (restart, failover, a pooler's or DBA's pg_terminate_backend). The
 * process must stay up, answer 503 while the database is away, and serve again by itself once it is back. This file
 * runs its own cluster, which it stops and starts, and only in the PostgreSQL pass of the integration suite.
 */
let cluster: Awaited<ReturnType<typeof startThrowawayPostgres>>;
let portaal: Portaal;
let person: Browser;

const onPostgres = process.env.TEST_DATABASE === 'postgres';

beforeAll(async () => {
  if (!onPostgres) return;
  cluster = await startThrowawayPostgres();
  portaal = await startPortaal({ env: { DATABASE_URL: cluster.url } });
  const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
  person = (await signInAtAal1(portaal, user.email, user.password)).browser;
});
afterAll(async () => {
  await portaal?.stop();
  await cluster?.stop();
});

/** The status of one call of each kind that needs the database: readiness, a new flow, sessions, Users API, Keto. */
async function statuses() {
  const status = async (answer: Promise<Response>) => (await answer).status;
  return {
    ready: await status(fetch(`${portaal.adminUrl}/health/ready`)),
    newFlow: await status(fetch(`${portaal.publicUrl}/self-service/login/api`)),
    whoami: await status(person.fetch(`${portaal.publicUrl}/sessions/whoami`)),
    usersApi: (await api(portaal, person, 'GET', '/users/whoami')).status,
    tuples: await status(fetch(`${portaal.adminUrl}/relation-tuples?namespace=organizations`)),
  };
}

const allOk = { ready: 200, newFlow: 200, whoami: 200, usersApi: 200, tuples: 200 };
const allUnavailable = { ready: 503, newFlow: 503, whoami: 503, usersApi: 503, tuples: 503 };

async function terminateEveryBackend(): Promise<number> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    const result = await client.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(onPostgres)('a PostgreSQL outage', () => {
  it('keeps running when the server ends every connection, and serves on new ones', async () => {
    expect(await statuses()).toEqual(allOk);
    expect(await terminateEveryBackend()).toBeGreaterThan(0);
    await sleep(500);
    expect(portaal.exitCode(), `the process ended:\n${portaal.output()}`).toBeNull();
    expect(await statuses()).toEqual(allOk);
  });

  it('answers 503 with the error envelope while the cluster is stopped, then serves again by itself', async () => {
    expect(await statuses()).toEqual(allOk);
    await cluster.stopServer();
    const stoppedAt = Date.now();
    while (Date.now() - stoppedAt < 10_000) {
      expect(await statuses()).toEqual(allUnavailable);
      await sleep(1_000);
    }
    const flow = await fetch(`${portaal.publicUrl}/self-service/login/api`);
    expect(flow.headers.get('retry-after')).toBe('5');
    expect((await flow.json()).error).toMatchObject({ code: 503, status: 'Service Unavailable' });
    const usersApi = await api(portaal, person, 'GET', '/users/whoami');
    expect(usersApi.body.error).toMatchObject({ code: 503, id: 'service_unavailable' });
    expect(usersApi.body.error.message).toMatch(/^De dienst is even niet beschikbaar/);

    await cluster.startServer();
    const deadline = Date.now() + 30_000;
    while ((await fetch(`${portaal.adminUrl}/health/ready`)).status !== 200) {
      expect(Date.now(), 'readiness did not come back within 30 s').toBeLessThan(deadline);
      await sleep(250);
    }
    // The session made before the outage is still valid: nothing was mistaken for a signed-out person.
    expect(await statuses()).toEqual(allOk);
    expect(portaal.exitCode()).toBeNull();
    const output = portaal.output();
    expect(output).not.toMatch(/Unhandled|uncaught/i);
    // One warning for the outage, not one per request or per courier round.
    expect(output.match(/database unavailable/g)?.length ?? 0).toBeLessThanOrEqual(2);
  });
});
