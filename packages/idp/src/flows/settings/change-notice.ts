import { securityNoticeMail, type AccountChange } from '@portaal/nl';
import type { DbExecutor } from '../../identities/identity-repository.js';
import type { Traits } from '../../identities/identity-schema.js';
import type { IdpServices } from '../../services.js';

/**
 * Queues the mail that tells a person their sign-in details changed
 * (docs/security.md#18-notices-of-changes-to-sign-in-details), in the transaction of the change itself: no change
 * without its notice, no notice of a change that was rolled back.
 */
export async function queueChangeNotice(
  services: IdpServices,
  db: DbExecutor,
  notice: { traits: Traits; change: AccountChange; to?: string; newEmail?: string },
): Promise<void> {
  const { traits, change } = notice;
  const mail = securityNoticeMail({
    change,
    at: services.ctx.clock.now(),
    firstName: traits.name?.first,
    newEmail: notice.newEmail,
  });
  await services.mail.enqueue(db, {
    to: notice.to ?? traits.email,
    ...mail,
    templateType: `account_change_${change}`,
  });
}
