import type { FastifyBaseLogger } from 'fastify';
import type Provider from 'oidc-provider';
import type { IdentityPort } from '../ports.js';
import { repeatEvery } from './repeat-every.js';
import type { SessionLinks } from './session-links.js';

/** node-oidc-provider's client sends the logout token (lib/models/client.js); its types leave the method out. */
interface BackchannelClient {
  backchannelLogoutUri?: string;
  backchannelLogout(sub: string, sid: string | undefined): Promise<void>;
}

/** How often every process looks for grants whose portal session has ended. */
const SINGLE_LOGOUT_EVERY_MS = 1000;
/** Links looked at per round; more wait for the next round. */
const BATCH = 500;

/**
 * Ends every OpenID Connect grant whose portal session can no longer be used, whatever ended it: sign-out in the
 * portal or at a service, the idle or absolute timeout, 'log out other devices', the home organisation's end-all, a
 * block, a deletion, a 2FA reset, a password changed by recovery (docs/architecture.md#single-sign-on-for-the-data-
 * services). For each: the grant and every token issued under it are removed, and the service gets a back-channel
 * logout token. The sessions are asked in one call per round; of several processes exactly one ends each grant
 * (`claimEnd`). Tokens are refused even before the round comes: `findAccount` asks the same question (oidc-account.ts).
 */
export async function endGrantsOfEndedSessions(
  provider: Provider,
  identities: Pick<IdentityPort, 'liveSessions'>,
  links: SessionLinks,
  log: FastifyBaseLogger,
): Promise<number> {
  const open = await links.open(BATCH);
  if (open.length === 0) return 0;
  const live = await identities.liveSessions([...new Set(open.map((link) => link.portal_session_id))]);
  let ended = 0;
  for (const link of open) {
    if (live.has(link.portal_session_id) || !(await links.claimEnd(link.grant_id))) continue;
    ended += 1;
    const grant = await provider.Grant.find(link.grant_id);
    await grant?.destroy();
    // Every access token, refresh token and code of the grant (the adapter removes them by grant id).
    await provider.RefreshToken.revokeByGrantId(link.grant_id);
    // A grant already gone was ended by the provider itself, which told the service (a logout confirmed there).
    if (!grant) continue;
    const client = (await provider.Client.find(link.client_id)) as BackchannelClient | undefined;
    if (!client?.backchannelLogoutUri) continue;
    await client.backchannelLogout(link.account_id, link.sid ?? undefined).then(
      () => log.info({ clientId: link.client_id }, 'back-channel logout delivered'),
      (error: unknown) => log.warn({ err: error, clientId: link.client_id }, 'back-channel logout not delivered'),
    );
  }
  await links.pruneEnded();
  return ended;
}

/** Runs `endGrantsOfEndedSessions` every second until stopped; a failing round is logged and the next one tries. */
export function startSingleLogout(run: () => Promise<number>, log: FastifyBaseLogger): () => Promise<void> {
  return repeatEvery(SINGLE_LOGOUT_EVERY_MS, run, (error) =>
    log.warn({ err: error }, 'single logout round failed; trying again'),
  );
}
