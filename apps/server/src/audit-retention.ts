import type { FastifyBaseLogger } from 'fastify';
import type { AuditLog } from '@portaal/users-api';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Keeps the audit log for AUDIT_RETENTION and no longer (AVG: data minimisation): prunes now and then once a day.
 * Several processes may prune at once; the deletes do not conflict. Answers a function that stops the pruning.
 */
export function pruneAuditDaily(audit: AuditLog, retentionMs: number, log: FastifyBaseLogger): () => void {
  const prune = () => {
    audit
      .pruneBefore(new Date(Date.now() - retentionMs))
      .then((removed) => {
        if (removed > 0) log.info({ removed }, 'audit entries past their retention removed');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'audit pruning failed; retrying tomorrow'));
  };
  prune();
  const timer = setInterval(prune, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
