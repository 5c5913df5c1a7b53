import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The database a test server uses: SQLite in its data directory by default, or a fresh database on the throwaway
 * PostgreSQL cluster that scripts/integration.mjs starts (TEST_DATABASE=postgres). `migrated`: a copy of the cluster's
 * database that `portaal migrate` brought up to date (TEST_POSTGRES_TEMPLATE), where one is; otherwise empty.
 */
export async function testDatabaseUrl({ migrated = false } = {}): Promise<string | undefined> {
  if (process.env.TEST_DATABASE !== 'postgres') return undefined;
  const base = process.env.TEST_POSTGRES_URL;
  if (!base)
    throw new Error('TEST_DATABASE=postgres needs TEST_POSTGRES_URL (run the tests through scripts/integration.mjs)');
  const name = `portaal_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    const template = migrated ? process.env.TEST_POSTGRES_TEMPLATE : undefined;
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await client.end();
  }
  // Which file's portal sent what (scripts/postgresql-statements.mjs).
  const log = process.env.TEST_POSTGRES_DATABASES;
  if (log) {
    const { expect } = await import('vitest');
    appendFileSync(log, `${name}\t${path.relative(process.cwd(), expect.getState().testPath ?? '')}\n`);
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One new, empty database for several processes: a PostgreSQL database or a SQLite file in a temporary folder. */
export async function sharedTestDatabase(): Promise<{ url: string; remove(): void }> {
  const url = await testDatabaseUrl();
  if (url) return { url, remove: () => {} };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaal-shared-'));
  return { url: path.join(dir, 'portaal.sqlite'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
