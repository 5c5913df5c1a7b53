import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { UsersApiDatabase } from '../db/schema.js';
import { repeatEvery } from './repeat-every.js';

type Db = Kysely<UsersApiDatabase>;

/** How often a process says again which keys it publishes, and looks at what the others say. */
export const ANNOUNCE_EVERY_MS = 5000;
/** A process not heard of for this long has stopped; its keys no longer count. */
const LIVE_MS = 3 * ANNOUNCE_EVERY_MS;
/** Rows of processes gone this long are removed. */
const FORGET_MS = 3600 * 1000;
/** Tries to withdraw at stop, and the pause between them: about two seconds in all. */
const WITHDRAW_ATTEMPTS = 10;
const WITHDRAW_PAUSE_MS = 200;

export interface SigningKeyAgreement {
  /** False while another live process publishes keys this one does not know: OpenID Connect is then refused. */
  agrees(): boolean;
  /** Says which keys this process publishes and looks at the others; the first call is made before listening. */
  announce(): Promise<void>;
  /** Announces every few seconds until the answer is called, which also withdraws this process. */
  start(): () => Promise<void>;
}

/**
 * Every process behind one balancer must publish the same signing keys, or a token one signed fails at a service
 * that fetched the other's `/oidc/jwks` (docs/operations.md#oidc-signing-keys). The deploy files give every replica
 * one `OIDC_JWKS`; a hand-made deployment may instead give each process its own data directory, where each then
 * generates its own key. Each process therefore writes its key ids into the shared database, and refuses OpenID
 * Connect while a live process publishes none of its keys. A key set that only grew or shrank (a rotation rolled
 * out process by process) still shares a key and is accepted.
 */
export function signingKeyAgreement<DB>(
  database: Kysely<DB>,
  kids: readonly string[],
  log: FastifyBaseLogger,
  now: () => number = Date.now,
): SigningKeyAgreement {
  const db = database as unknown as Db;
  const processId = randomUUID();
  const own = new Set(kids);
  let disagreeing: string[] = [];

  async function announce(): Promise<void> {
    const at = now();
    const row = { kids: kids.join(','), seen_at: new Date(at).toISOString() };
    await db
      .insertInto('oidc_key_announcements')
      .values({ process_id: processId, ...row })
      .onConflict((conflict) => conflict.column('process_id').doUpdateSet(row))
      .execute();
    await db
      .deleteFrom('oidc_key_announcements')
      .where('seen_at', '<', new Date(at - FORGET_MS).toISOString())
      .execute();
    const others = await db
      .selectFrom('oidc_key_announcements')
      .select(['process_id', 'kids'])
      .where('process_id', '!=', processId)
      .where('seen_at', '>=', new Date(at - LIVE_MS).toISOString())
      .execute();
    const strangers = others.filter((other) => !other.kids.split(',').some((kid) => own.has(kid)));
    const foreign = [...new Set(strangers.flatMap((other) => other.kids.split(',')))].sort();
    if (foreign.join() !== disagreeing.join()) report(foreign);
    disagreeing = foreign;
  }

  /**
   * Takes this process's announcement away as it stops, so that the others serve OpenID Connect again at once. A
   * busy database (another process writing its SQLite file) is tried again for a while: an announcement left behind
   * would be counted as live for LIVE_MS more.
   */
  async function withdraw(): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await db.deleteFrom('oidc_key_announcements').where('process_id', '=', processId).execute();
        return;
      } catch (error) {
        if (attempt >= WITHDRAW_ATTEMPTS) {
          log.warn({ err: error }, 'withdrawing the OpenID Connect signing keys failed; they count until forgotten');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, WITHDRAW_PAUSE_MS));
      }
    }
  }

  function report(foreign: string[]) {
    if (foreign.length === 0) {
      log.info('OpenID Connect served again: every running process publishes the same signing keys');
      return;
    }
    log.error(
      { ownKeys: kids, otherKeys: foreign },
      'OpenID Connect refused: another process publishes other signing keys, so tokens of one would fail at ' +
        'services that fetched the keys of the other. Give every process the same OIDC_JWKS (portaal oidc new-jwks) ' +
        'or one shared DATA_DIR.',
    );
  }

  return {
    agrees: () => disagreeing.length === 0,
    announce,
    start() {
      const stop = repeatEvery(ANNOUNCE_EVERY_MS, announce, (error) =>
        log.warn({ err: error }, 'announcing the OpenID Connect signing keys failed; trying again'),
      );
      return async () => {
        await stop();
        await withdraw();
      };
    },
  };
}
