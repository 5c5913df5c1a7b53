import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWASP_HASHING, startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, failure, identityApi, messageIds, newBrowser, type Browser } from '../support/ory.js';
import { createPasswordIdentity, uniqueEmail } from '../support/identities.js';
import { attemptLogin } from '../support/flows.js';

// Attacks on accounts that the checklist names (docs/security.md items 17 and 45, advisory rows 8 and 9): telling a
// known address from an unknown one by the time a sign-in takes, and getting around the lock after too many failed
// sign-ins by recovering the account.

const LOCK_SECONDS = 4;
const MAX_FAILURES = 3;

let timing: Portaal;
let locking: Portaal;
beforeAll(async () => {
  [timing, locking] = await Promise.all([
    // Nothing locks here: every attempt must do the full work.
    startPortaal({ env: { ...OWASP_HASHING, LOGIN_MAX_FAILURES: '100000', LOGIN_MAX_FAILURES_PER_ADDRESS: '100000' } }),
    startPortaal({ env: { LOGIN_MAX_FAILURES: String(MAX_FAILURES), LOGIN_LOCK_DURATION: `${LOCK_SECONDS}s` } }),
  ]);
});
afterAll(async () => {
  try {
    await timing?.stop();
  } finally {
    await locking?.stop();
  }
});

/** The time one password submit takes, flow creation excluded (an API flow: no cookies, no CSRF). */
async function timedSignIn(portaal: Portaal, identifier: string, password: string): Promise<number> {
  const headers = { accept: 'application/json' };
  const flow = (await (await fetch(`${portaal.publicUrl}/self-service/login/api`, { headers })).json()) as {
    id: string;
  };
  const body = JSON.stringify({ method: 'password', identifier, password });
  const started = performance.now();
  const answer = await fetch(`${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  });
  const text = await answer.text();
  const elapsed = performance.now() - started;
  expect(answer.status).toBe(400);
  expect(messageIds(JSON.parse(text))).toEqual([4000006]);
  return elapsed;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

describe('signing in with an unknown address', () => {
  it('takes as long as a wrong password for a known address (paired medians within 25 % or 5 ms)', async () => {
    const user = await createPasswordIdentity(identityApi(timing.adminUrl));
    const known: number[] = [];
    const unknown: number[] = [];
    // Warm-up, then pairs taken one right after the other, in turn about: a busy stretch of the machine hits both
    // halves of a pair alike, and the median of the differences within pairs leaves the load out.
    for (let i = 0; i < 5; i += 1) {
      await timedSignIn(timing, user.email, `Fout-wachtwoord-${i}`);
      await timedSignIn(timing, uniqueEmail('onbekend'), `Fout-wachtwoord-${i}`);
    }
    for (let i = 0; i < 40; i += 1) {
      const pair = [
        async () => known.push(await timedSignIn(timing, user.email, `Fout-wachtwoord-${i}`)),
        async () => unknown.push(await timedSignIn(timing, uniqueEmail('onbekend'), `Fout-wachtwoord-${i}`)),
      ];
      if (i % 2 === 1) pair.reverse();
      for (const attempt of pair) await attempt();
    }
    const difference = median(known.map((k, i) => k - unknown[i]!));
    const [k, u] = [median(known), median(unknown)];
    console.info(
      `sign-in timing: known address ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms, ` +
        `difference within pairs ${difference.toFixed(1)} ms (medians of 40)`,
    );
    // Both do one argon2id verification (a dummy one for the unknown address), which dominates.
    expect(Math.abs(difference)).toBeLessThan(Math.max(5, 0.25 * Math.min(k, u)));
  });
});

const codeIn = (text: string) => /^(\d{6})$/m.exec(text)?.[1];

describe('an account locked by failed sign-ins', () => {
  async function requestCode(browser: Browser, email: string) {
    const flow = await explained(browser.frontend.createBrowserRecoveryFlow({}));
    return explained(
      browser.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: 'code', email, csrf_token: csrfTokenOf(flow) },
      }),
    );
  }

  const submitCode = (browser: Browser, flow: { id: string; ui: { nodes: any[] } }, code: string) =>
    browser.frontend.updateRecoveryFlow({
      flow: flow.id,
      updateRecoveryFlowBody: { method: 'code', code, csrf_token: csrfTokenOf(flow) },
    });

  it('gets no session through recovery while locked: the mailed code answers like a wrong one', async () => {
    const user = await createPasswordIdentity(identityApi(locking.adminUrl));
    for (let i = 0; i < MAX_FAILURES; i += 1)
      await failure(attemptLogin(newBrowser(locking.publicUrl), user.email, `Fout-wachtwoord-${i}`));
    const lockedAt = Date.now();
    const refused = await failure(attemptLogin(newBrowser(locking.publicUrl), user.email, user.password));
    expect(messageIds(refused.body)).toEqual([4000006]);

    // Asking for a code answers as for any address, and the mail goes out: the lock is not told.
    const browser = newBrowser(locking.publicUrl);
    const since = new Date();
    const sent = await requestCode(browser, user.email);
    expect(sent.state).toBe('sent_email');
    expect(sent.ui.messages?.map((m) => m.id)).toEqual([1060003]);
    const code = codeIn((await locking.mail.waitFor(user.email, { since })).text)!;

    // The right code answers exactly like a wrong one, and issues no session.
    const wrong = await explained(submitCode(browser, sent, code === '000000' ? '111111' : '000000'));
    const right = await explained(submitCode(browser, sent, code));
    expect(right.state).toBe(wrong.state);
    expect(messageIds(right)).toEqual(messageIds(wrong));
    expect(messageIds(right)).toEqual([4060006]);
    expect((await failure(browser.frontend.toSession())).status).toBe(401);

    // Once the lock has run out, that code stays spent, and a new one recovers the account.
    await new Promise((resolve) => setTimeout(resolve, lockedAt + LOCK_SECONDS * 1000 + 500 - Date.now()));
    const again = await explained(submitCode(browser, sent, code));
    expect(messageIds(again)).toEqual([4060006]);
    const later = newBrowser(locking.publicUrl);
    const laterSince = new Date();
    const next = await requestCode(later, user.email);
    const nextCode = codeIn((await locking.mail.waitFor(user.email, { since: laterSince })).text)!;
    const recovered = await failure(submitCode(later, next, nextCode));
    expect(recovered.status).toBe(422);
    expect(recovered.body.error.id).toBe('browser_location_change_required');
    const session = await later.frontend.toSession();
    expect(session.identity?.id).toBe(user.id);
    expect(session.authentication_methods?.map((m) => m.method)).toEqual(['code_recovery']);
  });
});

describe('a recovery code sent twice at once (advisory row 2)', () => {
  it('lets exactly one of the two submits through', async () => {
    const user = await createPasswordIdentity(identityApi(locking.adminUrl));
    const headers = { accept: 'application/json', 'content-type': 'application/json' };
    const flow = (await (await fetch(`${locking.publicUrl}/self-service/recovery/api`, { headers })).json()) as {
      id: string;
    };
    const submit = (body: object) =>
      fetch(`${locking.publicUrl}/self-service/recovery?flow=${flow.id}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ method: 'code', ...body }),
      });
    const since = new Date();
    expect((await submit({ email: user.email })).status).toBe(200);
    const code = codeIn((await locking.mail.waitFor(user.email, { since })).text)!;
    const answers = await Promise.all([submit({ code }), submit({ code })]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as any[];
    const tokens = bodies.flatMap((body) =>
      (body.continue_with ?? []).filter((item: { action: string }) => item.action === 'set_ory_session_token'),
    );
    expect(tokens).toHaveLength(1);
    expect(bodies.filter((body) => messageIds(body).includes(4060006))).toHaveLength(1);
  });
});
