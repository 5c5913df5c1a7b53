import crypto from 'node:crypto';
import type { Clock } from '../clock.js';
import type { DbExecutor } from '../identities/identity-repository.js';
import { kratosErrors } from '../errors/kratos-errors.js';

const SINGLE_ADDRESS = /^[^\s@<>(),;:"\\]+@[^\s@<>(),;:"\\]+\.[^\s@<>(),;:"\\]+$/;

/** Queues a mail as a row, inside the caller's transaction; the courier sends it. Nothing is ever dropped. */
export async function enqueueMail(
  db: DbExecutor,
  clock: Clock,
  mail: { to: string; subject: string; text: string; templateType: string },
): Promise<string> {
  // A recipient with CR/LF or several addresses could inject headers or extra recipients.
  if (!SINGLE_ADDRESS.test(mail.to) || /[\r\n]/.test(mail.subject)) {
    throw kratosErrors.badRequest('The mail recipient is not a single valid e-mail address.');
  }
  const id = crypto.randomUUID();
  const now = clock.now().toISOString();
  await db
    .insertInto('courier_messages')
    .values({
      id,
      recipient: mail.to,
      subject: mail.subject,
      body: mail.text,
      template_type: mail.templateType,
      status: 'queued',
      send_count: 0,
      last_error: null,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
