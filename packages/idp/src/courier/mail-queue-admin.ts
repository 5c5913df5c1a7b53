import type { Clock } from '../clock.js';
import type { DbExecutor } from '../identities/identity-repository.js';

export type MailStatus = 'queued' | 'sent' | 'failed' | 'abandoned';

/** How many mails are in each state: what the metrics show and an alert watches (failed, abandoned). */
export async function countMailsByStatus(db: DbExecutor): Promise<Record<MailStatus, number>> {
  const counts: Record<MailStatus, number> = { queued: 0, sent: 0, failed: 0, abandoned: 0 };
  const rows = await db
    .selectFrom('courier_messages')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status')
    .execute();
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

/** The mails in one state, oldest first, without their bodies (which carry codes and links). */
export async function listMails(db: DbExecutor, status: MailStatus) {
  return db
    .selectFrom('courier_messages')
    .select(['id', 'recipient', 'subject', 'template_type', 'status', 'send_count', 'last_error', 'created_at'])
    .where('status', '=', status)
    .orderBy('created_at')
    .execute();
}

/** Queues the abandoned mails again with a fresh count of attempts; answers how many. */
export async function retryAbandonedMails(db: DbExecutor, clock: Clock): Promise<number> {
  const now = clock.now().toISOString();
  const result = await db
    .updateTable('courier_messages')
    .set({ status: 'queued', send_count: 0, next_attempt_at: now, updated_at: now })
    .where('status', '=', 'abandoned')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
