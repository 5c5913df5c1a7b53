import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, identityApi, newBrowser, newNativeClient, type Browser } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { enrolTotp, loginSecondFactor, loginWithPassword, signedInPerson } from '../support/flows.js';

// Checklist items 20 and 21 (docs/security.md): reference tokens stored only as hashes, and a new token at every
// sign-in and every rise in assurance, so that a token planted or captured before a step never gains its level; a
// changed password renews a browser's token, the old one working only for a grace window of 30 seconds.

/** sessions/session-repository.ts RENEWED_TOKEN_GRACE_MS. */
const GRACE_MS = 30_000;

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

const SESSION_COOKIE = 'ory_kratos_session';

async function sessionCookie(browser: Browser): Promise<string | undefined> {
  const cookies = await browser.jar.getCookies(portaal.publicUrl);
  return cookies.find((cookie) => cookie.key === SESSION_COOKIE)?.value;
}

/** whoami with only this session cookie, as an attacker holding the value would send it. */
async function whoamiWith(token: string): Promise<number> {
  const answer = await fetch(`${portaal.publicUrl}/sessions/whoami`, {
    headers: { accept: 'application/json', cookie: `${SESSION_COOKIE}=${token}` },
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** whoami with this token as an API client sends it. */
async function whoamiWithToken(token: string): Promise<number> {
  const answer = await fetch(`${portaal.publicUrl}/sessions/whoami`, {
    headers: { accept: 'application/json', 'X-Session-Token': token },
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** Every value of the sessions table, as text, from whichever database this run uses. */
async function storedSessionValues(): Promise<string> {
  const url = portaal.env.DATABASE_URL;
  if (url?.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return JSON.stringify((await client.query('select * from sessions')).rows);
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(portaal.dataDir, 'portaal.sqlite'), { readonly: true });
  try {
    return JSON.stringify(db.prepare('select * from sessions').all());
  } finally {
    db.close();
  }
}

describe('session tokens', () => {
  it('are stored only as hashes: no token the server handed out appears in the database', async () => {
    const { browser } = await signedInPerson(portaal);
    const token = await sessionCookie(browser);
    expect(token).toMatch(/^ory_st_[A-Za-z0-9]{32}$/);
    const stored = await storedSessionValues();
    expect(stored).not.toContain(token!);
    expect(stored).not.toContain(token!.slice('ory_st_'.length));
  });

  it('are new after the second factor: the token from before the step no longer works', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const enrolling = newBrowser(portaal.publicUrl);
    await loginWithPassword(enrolling, user.email, user.password);
    // Enrolled with the previous step's code, so that the sign-in's code of the current step is a new one.
    const secret = await enrolTotp(enrolling, -1);

    const browser = newBrowser(portaal.publicUrl);
    const first = await loginWithPassword(browser, user.email, user.password);
    expect(first.redirectBrowserTo).toContain('aal=aal2');
    const beforeStep = (await sessionCookie(browser))!;
    expect(await whoamiWith(beforeStep)).toBe(403);
    await loginSecondFactor(browser, secret);
    const afterStep = (await sessionCookie(browser))!;
    expect(afterStep).not.toBe(beforeStep);
    expect(await whoamiWith(afterStep)).toBe(200);
    expect(await whoamiWith(beforeStep)).toBe(401);
  });

  it('are new after signing in again (refresh), and the old one no longer works', async () => {
    const { user, browser } = await signedInPerson(portaal);
    const before = (await sessionCookie(browser))!;
    const flow = await browser.frontend.createBrowserLoginFlow({ refresh: true });
    const csrf = csrfTokenOf(flow);
    await browser.frontend.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password, csrf_token: csrf },
    });
    const after = (await sessionCookie(browser))!;
    expect(after).not.toBe(before);
    expect(await whoamiWith(after)).toBe(200);
    expect(await whoamiWith(before)).toBe(401);
  });

  it('cannot be planted: a cookie set before the victim signs in stays worthless; a new one is given', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const planted = 'ory_st_PlantedByTheAttacker0123456789abcdef'.slice(0, 39);
    const victim = newBrowser(portaal.publicUrl);
    await victim.jar.setCookie(`${SESSION_COOKIE}=${planted}; Path=/`, portaal.publicUrl);
    await loginWithPassword(victim, user.email, user.password);
    const issued = (await sessionCookie(victim))!;
    expect(issued).not.toBe(planted);
    expect(await whoamiWith(issued)).toBe(200);
    expect(await whoamiWith(planted)).toBe(401);
  });

  it('differ per person on a shared browser: after logging out, the next person gets a new session', async () => {
    const [anna, bram] = await Promise.all([
      createPasswordIdentity(identityApi(portaal.adminUrl)),
      createPasswordIdentity(identityApi(portaal.adminUrl)),
    ]);
    const shared = newBrowser(portaal.publicUrl);
    const first = (await loginWithPassword(shared, anna.email, anna.password)).session!;
    const annasToken = (await sessionCookie(shared))!;
    const logout = await shared.frontend.createBrowserLogoutFlow({});
    await shared.frontend.updateLogoutFlow({ token: logout.logout_token });
    const second = (await loginWithPassword(shared, bram.email, bram.password)).session!;
    expect(second.id).not.toBe(first.id);
    expect(second.identity?.traits.email).toBe(bram.email);
    expect(await sessionCookie(shared)).not.toBe(annasToken);
    expect(await whoamiWith(annasToken)).toBe(401);
  });

  it('are renewed by a password change in a browser: the old one works for the grace window only', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const signedIn = (await loginWithPassword(browser, user.email, user.password)).session!;
    const before = (await sessionCookie(browser))!;
    // An API client of the same person: its token is not renewed (Kratos' settings never hand one out).
    const native = newNativeClient(portaal.publicUrl);
    const login = await native.createNativeLoginFlow({});
    const apiToken = (
      await explained(
        native.updateLoginFlow({
          flow: login.id,
          updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password },
        }),
      )
    ).session_token!;

    const flow = await explained(browser.frontend.createBrowserSettingsFlow({}));
    const newPassword = `${user.password}-Nieuw-9`;
    await explained(
      browser.frontend.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: { method: 'password', password: newPassword, csrf_token: csrfTokenOf(flow) },
      }),
    );
    const changedAt = Date.now();
    const after = (await sessionCookie(browser))!;
    expect(after).toMatch(/^ory_st_[A-Za-z0-9]{32}$/);
    expect(after).not.toBe(before);
    const whoami = await explained(browser.frontend.toSession());
    expect(whoami.id).toBe(signedIn.id);
    expect(await whoamiWith(after)).toBe(200);
    // A tab or call still under way with the old cookie is not signed out at once.
    expect(await whoamiWith(before)).toBe(200);

    const apiFlow = await explained(native.createNativeSettingsFlow({ xSessionToken: apiToken }));
    const apiAnswer = await explained(
      native.updateSettingsFlow({
        flow: apiFlow.id,
        xSessionToken: apiToken,
        updateSettingsFlowBody: { method: 'password', password: `${newPassword}-Weer` },
      }),
    );
    expect(apiAnswer.state).toBe('success');
    expect(JSON.stringify(apiAnswer)).not.toContain('ory_st_');

    await new Promise((resolve) => setTimeout(resolve, changedAt + GRACE_MS + 1_000 - Date.now()));
    expect(await whoamiWith(before)).toBe(401);
    expect(await whoamiWith(after)).toBe(200);
    expect(await whoamiWithToken(apiToken)).toBe(200);
  }, 60_000);
});
