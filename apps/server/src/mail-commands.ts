import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { listMails, retryAbandonedMails, systemClock, type MailStatus } from '@portaal/idp';
import { loadConfig } from './config.js';
import { withProduct } from './product.js';

const STATUSES: MailStatus[] = ['queued', 'failed', 'abandoned', 'sent'];

/**
 * `portaal mail list [--status STATUS]` shows the mails in one state (default: abandoned after the retry limit),
 * one JSON line each without the body; `portaal mail retry` queues every abandoned mail again.
 */
export async function mail(args: string[], log: FastifyBaseLogger): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: { status: { type: 'string', default: 'abandoned' } } });
    const status = values.status as MailStatus;
    if (!STATUSES.includes(status)) {
      process.stderr.write(`--status moet een van ${STATUSES.join(', ')} zijn, maar is '${status}'.\n`);
      return 2;
    }
    const rows = await withProduct(loadConfig(), log, (product) => listMails(product.db.kysely, status));
    for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
    return 0;
  }
  if (sub === 'retry') {
    const count = await withProduct(loadConfig(), log, (product) =>
      retryAbandonedMails(product.db.kysely, systemClock),
    );
    process.stdout.write(`${count} opgegeven e-mail(s) opnieuw in de wachtrij gezet.\n`);
    return 0;
  }
  process.stderr.write("Gebruik: portaal mail list [--status abandoned|failed|queued|sent] of 'portaal mail retry'.\n");
  return 2;
}
