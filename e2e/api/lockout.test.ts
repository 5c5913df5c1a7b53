import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { failure, identityApi, messageIds, newBrowser } from '../support/ory.js';
import { attemptLogin } from '../support/flows.js';
import { createPasswordIdentity } from '../support/identities.js';

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal({ env: { LOGIN_LOCK_DURATION: '3s' } });
});
afterAll(async () => {
  await portaal?.stop();
});

const attempt = (email: string, password: string) => attemptLogin(newBrowser(portaal.publicUrl), email, password);

describe('login lock', () => {
  it('locks an account after 10 failures, even for the right password, until the lock expires', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    for (let i = 0; i < 10; i += 1) {
      const { body } = await failure(attempt(user.email, `Fout-${i}-wachtwoord`));
      expect(messageIds(body)).toEqual([4000006]);
    }
    const locked = await failure(attempt(user.email, user.password));
    expect(locked.status).toBe(400);
    // The lock answers exactly like a wrong password: nothing tells an attacker the account exists.
    expect(messageIds(locked.body)).toEqual([4000006]);
    // An operator sees it: failed and locked sign-ins are counted for alerting.
    const metrics = await (await fetch(`${portaal.adminUrl}/metrics`)).text();
    const count = (outcome: string) =>
      Number(
        new RegExp(`^portaal_sign_ins_total\\{method="password",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(
          metrics,
        )?.[1],
      );
    expect(count('failure')).toBeGreaterThanOrEqual(10);
    expect(count('locked')).toBeGreaterThanOrEqual(1);

    await new Promise((r) => setTimeout(r, 3_200));
    const unlocked = await attempt(user.email, user.password);
    expect(unlocked.session.identity?.id).toBe(user.id);
  });

  it('keeps other accounts usable while one is locked', async () => {
    const identities = identityApi(portaal.adminUrl);
    const victim = await createPasswordIdentity(identities);
    const other = await createPasswordIdentity(identities);
    for (let i = 0; i < 10; i += 1) await failure(attempt(victim.email, 'Fout-wachtwoord-1'));
    expect((await attempt(other.email, other.password)).session.identity?.id).toBe(other.id);
  });
});
