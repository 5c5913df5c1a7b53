import crypto from 'node:crypto';
import type { HttpError } from '../errors/herodot.js';
import { saveFlow } from './flow.js';
import type { AnsweredContext } from './flow-context.js';
import type { Outcome } from './outcome.js';

/**
 * The writes an outcome asks for, made before `answer.ts` answers it, which writes nothing: the flow as it now
 * stands, where the outcome answered in this request's mode shows it.
 */
export async function writeOutcome(ctx: AnsweredContext, outcome: Outcome): Promise<void> {
  switch (outcome.kind) {
    case 'flow':
      if (outcome.save) await saveFlow(ctx.idp.db.kysely, ctx.idp.clock, outcome.flow);
      return;
    case 'continue_elsewhere':
      if (outcome.flow.type === 'api') await writeOutcome(ctx, outcome.forApi);
      return;
    case 'browser_redirect':
      if (ctx.mode !== 'redirect') await writeOutcome(ctx, outcome.otherwise);
      return;
    default:
      return;
  }
}

/** Stores an error for the error page a browser is sent to (docs/kratos-compatibility.md#the-error-page-store). */
export async function storeBrowserError(ctx: AnsweredContext, error: HttpError): Promise<string> {
  const { db, clock } = ctx.idp;
  const id = crypto.randomUUID();
  await db.kysely
    .insertInto('selfservice_errors')
    .values({ id, error: JSON.stringify(error.toErrorObject()), created_at: clock.now().toISOString() })
    .execute();
  return id;
}
