import nodemailer, { type Transporter } from 'nodemailer';
import type { IdpContext } from '../context.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';

const POLL_MS = 500;
const BATCH = 20;
const MAX_ATTEMPTS = 20;
// While the database is out of reach the courier polls ever less often, up to this interval.
const MAX_IDLE_POLL_MS = 30_000;

/** Backoff after the n-th failed attempt: 5 s, 10 s, 20 s … at most 15 minutes. */
const backoffMs = (attempts: number) => Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 15 * 60_000);

export interface Courier {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Sends everything that is due now. */
  flush(): Promise<void>;
}

/**
 * Sends queued mails over SMTP, retrying failures with backoff. A row is claimed by moving its `next_attempt_at`
 * forward by a lease (a conditional update), so several processes never send the same mail twice and a crash
 * between claim and send only delays it. `send_count` counts the claims, so every attempt is counted, also one whose
 * process died after the SMTP server had accepted the mail. Without SMTP the mail stays readable in the development
 * mailbox.
 */
export function createCourier(ctx: IdpContext): Courier {
  const { db, clock, log, config } = ctx;
  const transport: Transporter | undefined = config.mail.smtpUrl
    ? nodemailer.createTransport(config.mail.smtpUrl)
    : undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let pollMs = POLL_MS;

  async function sendDue(): Promise<void> {
    const now = clock.now();
    const due = await db.kysely
      .selectFrom('courier_messages')
      .selectAll()
      .where('status', 'in', ['queued', 'failed'])
      .where('next_attempt_at', '<=', now.toISOString())
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    for (const message of due) {
      const claim = await db.kysely
        .updateTable('courier_messages')
        // Each claim is an attempt: a mail sent again after a crash between the SMTP acceptance and `markSent` shows
        // that it went out twice.
        .set((eb) => ({
          next_attempt_at: new Date(now.getTime() + config.mail.leaseMs).toISOString(),
          send_count: eb('send_count', '+', 1),
        }))
        .where('id', '=', message.id)
        .where('next_attempt_at', '=', message.next_attempt_at)
        .where('status', 'in', ['queued', 'failed'])
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) continue;
      if (!transport) {
        log.info(`mail to ${message.recipient}: ${message.subject}`);
        await markSent(message.id);
        continue;
      }
      try {
        await transport.sendMail({
          from: config.mail.from,
          to: message.recipient,
          subject: message.subject,
          text: message.body,
        });
        await markSent(message.id);
      } catch (error) {
        const attempts = message.send_count + 1;
        const abandoned = attempts >= MAX_ATTEMPTS;
        const reason = error instanceof Error ? error.message.slice(0, 500) : 'unknown error';
        await db.kysely
          .updateTable('courier_messages')
          .set({
            status: abandoned ? 'abandoned' : 'failed',
            last_error: reason,
            next_attempt_at: new Date(clock.now().getTime() + backoffMs(attempts)).toISOString(),
            updated_at: clock.now().toISOString(),
          })
          .where('id', '=', message.id)
          .execute();
        if (abandoned) log.error({ mail: message.id, attempts }, 'mail abandoned after repeated failures');
        else log.warn({ mail: message.id, attempts, reason }, 'mail not sent, will retry');
      }
    }
  }

  async function markSent(id: string) {
    await db.kysely
      .updateTable('courier_messages')
      .set({ status: 'sent', last_error: null, updated_at: clock.now().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sendDue()
        .then(() => {
          pollMs = POLL_MS;
        })
        .catch((error: unknown) => {
          // The database layer has logged the outage already; back off quietly until it is back.
          if (isDatabaseUnavailable(error)) pollMs = Math.min(pollMs * 2, MAX_IDLE_POLL_MS);
          else log.error({ err: error }, 'courier run failed');
        })
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, pollMs);
  }

  return {
    async start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      transport?.close();
    },
    async flush() {
      await running;
      await sendDue();
    },
  };
}
