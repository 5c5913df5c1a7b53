import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

export interface CaughtMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: Date;
}

export interface MailSink {
  url: string;
  messages: CaughtMail[];
  /** Waits for the first mail to `address` (case-insensitive) received after `since` that passes `filter`. */
  waitFor(
    address: string,
    options?: { since?: Date; filter?: (mail: CaughtMail) => boolean; timeoutMs?: number },
  ): Promise<CaughtMail>;
  /** Mails to `address` received so far. */
  to(address: string): CaughtMail[];
  /** Makes the next `count` deliveries fail with a temporary SMTP error (to test the courier's retries). */
  failNext(count: number): void;
  /** Runs `action` once, when the next mail has been kept and just before the server answers that it accepted it. */
  beforeNextAcceptance(action: () => void): void;
  close(): Promise<void>;
}

/** A real SMTP server on a free loopback port that keeps every mail it receives, parsed. */
export async function startMailSink(): Promise<MailSink> {
  const messages: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  let failures = 0;
  let beforeAcceptance: (() => void) | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      if (failures > 0) {
        failures -= 1;
        stream.resume();
        stream.on('end', () => {
          const error = Object.assign(new Error('Tijdelijk niet beschikbaar'), { responseCode: 451 });
          callback(error);
        });
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const addresses = [parsed.to]
            .flat()
            .flatMap((t) => (t ? t.value.map((v) => (v.address ?? '').toLowerCase()) : []));
          messages.push({
            to: addresses,
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: new Date(),
          });
          for (const wake of waiters) wake();
          const action = beforeAcceptance;
          beforeAcceptance = undefined;
          action?.();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // Port 0: the system gives a free port as it binds, which no other test's process can take meanwhile.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const matching = (address: string) => messages.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: matching,
    failNext(count) {
      failures = count;
    },
    beforeNextAcceptance(action) {
      beforeAcceptance = action;
    },
    waitFor(address, options = {}) {
      const { since = new Date(0), filter = () => true, timeoutMs = 15_000 } = options;
      const find = () => matching(address).find((m) => m.receivedAt >= since && filter(m));
      return new Promise((resolve, reject) => {
        const found = find();
        if (found) return resolve(found);
        const check = () => {
          const mail = find();
          if (!mail) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no mail to ${address} within ${timeoutMs} ms ` +
                `(caught: ${messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none'})`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
