import type { FastifyBaseLogger } from 'fastify';
import type { AuditLog, ImportStore } from '@portaal/users-api';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Keeps the audit log, and the imports of people with the files' rows, for AUDIT_RETENTION and no longer (AVG: data
 * minimisation); an import's preview that was never started goes after a day. Prunes now and then once a day.
 * Several processes may prune at once; the deletes do not conflict. Answers a function that stops the pruning.
 */
export function pruneAuditDaily(
  kept: { audit: AuditLog; imports: ImportStore },
  retentionMs: number,
  log: FastifyBaseLogger,
): () => void {
  const prune = () => {
    const before = new Date(Date.now() - retentionMs);
    kept.audit
      .pruneBefore(before)
      .then((removed) => {
        if (removed > 0) log.info({ removed }, 'audit entries past their retention removed');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'audit pruning failed; retrying tomorrow'));
    kept.imports
      .prune(before.toISOString(), new Date(Date.now() - DAY_MS).toISOString())
      .then((removed) => {
        if (removed > 0) log.info({ removed }, 'imports past their retention removed');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'import pruning failed; retrying tomorrow'));
  };
  prune();
  const timer = setInterval(prune, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
