import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, failure, identityApi, messageIds, newBrowser, type Browser } from '../support/ory.js';
import { createPasswordIdentity, uniqueEmail } from '../support/identities.js';
import { enrolLookupSecrets, enrolTotp, loginWithPassword } from '../support/flows.js';
import { api, createMember, getJson, signInAtAal1 } from '../support/portal-users.js';

// Attacks on the one-time links and codes (docs/security.md items 11, 12, 14 and 39): links and codes used twice,
// in another flow, after their lifespan; recovery steps skipped; verification codes guessed.

interface Server {
  portaal: Portaal;
  /** An administrator of `dego`, which needs no second factor, signed in: invites through the Users API. */
  admin: Browser;
}

let normal: Server;
let shortLived: Server;

async function start(env: Record<string, string> = {}): Promise<Server> {
  const portaal = await startPortaal({ args: ['--demo'], env });
  const admin = { email: uniqueEmail('beheer-dego'), password: 'Polder-Molen-Sluis-42', org: 'dego', admin: true };
  await createMember(portaal, admin);
  return { portaal, admin: (await signInAtAal1(portaal, admin.email, admin.password)).browser };
}

beforeAll(async () => {
  [normal, shortLived] = await Promise.all([start(), start({ CODE_LIFESPAN: '2s', INVITATION_LIFESPAN: '2s' })]);
});
afterAll(async () => {
  try {
    await normal?.portaal.stop();
  } finally {
    await shortLived?.portaal.stop();
  }
});

const linkIn = (text: string) => /(http:\/\/\S+token=\S+)/.exec(text)![1]!;
const codeIn = (text: string) => /^(\d{6})$/m.exec(text)![1]!;
const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface MailedLink {
  email: string;
  link: string;
  /** The browser whose flow the link belongs to, when a person (not an administrator) asked for it. */
  owner?: Browser;
}

/** The three ways a link that signs in reaches a mailbox. */
const linkSources: [string, (server: Server) => Promise<MailedLink>][] = [
  [
    'an invitation link',
    async ({ portaal, admin }) => {
      const email = uniqueEmail('uitgenodigd');
      const since = new Date();
      const created = await api(portaal, admin, 'POST', '/users', {
        traits: { email, name: { first: 'Ivo', last: 'Uitgenodigd' } },
        permissions: [],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return { email, link: linkIn((await portaal.mail.waitFor(email, { since })).text) };
    },
  ],
  [
    "the Users API's recovery link",
    async ({ portaal }) => {
      const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
      const since = new Date();
      const asked = await api(portaal, undefined, 'GET', `/users/password-recovery?email=${user.email}`);
      expect(asked.status).toBe(200);
      return { email: user.email, link: linkIn((await portaal.mail.waitFor(user.email, { since })).text) };
    },
  ],
  [
    'a self-service recovery link',
    async ({ portaal }) => {
      const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
      const owner = newBrowser(portaal.publicUrl);
      const flow = await explained(owner.frontend.createBrowserRecoveryFlow({}));
      const since = new Date();
      await explained(
        owner.frontend.updateRecoveryFlow({
          flow: flow.id,
          updateRecoveryFlowBody: { method: 'link', email: user.email, csrf_token: csrfTokenOf(flow) },
        }),
      );
      return { email: user.email, link: linkIn((await portaal.mail.waitFor(user.email, { since })).text), owner };
    },
  ],
];

/** Follows a link in a browser; answers where it went and whether that browser now has a session. */
async function follow(portaal: Portaal, browser: Browser, link: string) {
  const answer = await browser.fetch(link, { redirect: 'manual' });
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get('location')!);
  const whoami = await browser.fetch(`${portaal.publicUrl}/sessions/whoami`, {
    headers: { accept: 'application/json' },
  });
  return { location, signedIn: whoami.status === 200 };
}

/** A refused link: back to the recovery screen with a new flow that says why, and no session. */
async function expectRefused(portaal: Portaal, browser: Browser, link: string, expected = [4060004]) {
  const { location, signedIn } = await follow(portaal, browser, link);
  expect(location.pathname).toBe('/recovery');
  expect(signedIn).toBe(false);
  const flow = await explained(browser.frontend.getRecoveryFlow({ id: location.searchParams.get('flow')! }));
  expect(expected).toContainEqual(messageIds(flow)[0]);
}

async function post(portaal: Portaal, path: string, body: unknown, browser?: Browser) {
  const response = await (browser?.fetch ?? fetch)(`${portaal.publicUrl}${path}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
}

async function apiFlow(portaal: Portaal, kind: 'recovery' | 'verification'): Promise<string> {
  return ((await getJson(`${portaal.publicUrl}/self-service/${kind}/api`)) as { id: string }).id;
}

/** The identity with this address, with the kinds of credentials it has (an invited one has none yet). */
async function identityOf(portaal: Portaal, email: string) {
  const list = (await getJson(`${portaal.adminUrl}/admin/identities?page_size=500`)) as {
    id: string;
    traits: { email: string };
  }[];
  const found = list.find((identity) => identity.traits.email === email);
  if (!found) throw new Error(`no identity with ${email}`);
  return getJson(`${portaal.adminUrl}/admin/identities/${found.id}`);
}
const verified = async (portaal: Portaal, id: string) =>
  (await getJson(`${portaal.adminUrl}/admin/identities/${id}`)).verifiable_addresses[0].verified as boolean;

describe.each(linkSources)('%s', (_name, mailed) => {
  it('works once: a second click, in another browser or the same, gets no session', async () => {
    const { portaal } = normal;
    const { link } = await mailed(normal);
    const first = await follow(portaal, newBrowser(portaal.publicUrl), link);
    expect(first.location.pathname).toBe('/settings');
    expect(first.signedIn).toBe(true);
    await expectRefused(portaal, newBrowser(portaal.publicUrl), link);
    await expectRefused(portaal, newBrowser(portaal.publicUrl), link);
  });

  it('works only in its own flow: not with another flow id, not as a code, not for verification', async () => {
    const { portaal } = normal;
    const { link, owner } = await mailed(normal);
    const url = new URL(link);
    const token = url.searchParams.get('token')!;
    const flowId = url.searchParams.get('flow')!;

    // The token with the attacker's own recovery flow, and with none.
    const attacker = newBrowser(portaal.publicUrl);
    const own = await explained(attacker.frontend.createBrowserRecoveryFlow({}));
    await expectRefused(portaal, attacker, `${portaal.publicUrl}/self-service/recovery?flow=${own.id}&token=${token}`);
    await expectRefused(portaal, attacker, `${portaal.publicUrl}/self-service/recovery?token=${token}`);

    // The token typed as a recovery code into its own flow (a code is bound to its purpose as well as its flow).
    const submitter = owner ?? newBrowser(portaal.publicUrl);
    const flow = owner ? await explained(owner.frontend.getRecoveryFlow({ id: flowId })) : undefined;
    const asCode = await post(
      portaal,
      `/self-service/recovery?flow=${flowId}`,
      { method: 'code', code: token, ...(flow ? { csrf_token: csrfTokenOf(flow) } : {}) },
      submitter,
    );
    expect(asCode.status, asCode.text).toBe(200);
    expect(messageIds(asCode.body)).toEqual([4060006]);
    expect((await submitter.fetch(`${portaal.publicUrl}/sessions/whoami`)).status).toBe(401);

    // The token as a verification code, and the link turned into a verification link.
    const verification = await apiFlow(portaal, 'verification');
    const asVerification = await post(portaal, `/self-service/verification?flow=${verification}`, {
      method: 'code',
      code: token,
    });
    expect(messageIds(asVerification.body)).toEqual([4070006]);
    const turned = await attacker.fetch(`${portaal.publicUrl}/self-service/verification?flow=${flowId}&code=${token}`, {
      redirect: 'manual',
    });
    expect(turned.status).toBeLessThan(500);
    expect(turned.headers.get('location') ?? '').not.toContain('/settings');
    expect((await attacker.fetch(`${portaal.publicUrl}/sessions/whoami`)).status).toBe(401);

    // None of that spent it: the link still works, once, in its own flow.
    const genuine = await follow(portaal, newBrowser(portaal.publicUrl), link);
    expect(genuine.location.pathname).toBe('/settings');
    expect(genuine.signedIn).toBe(true);
  });

  it('dies after its lifespan', async () => {
    const { portaal } = shortLived;
    const { email, link } = await mailed(shortLived);
    await pause(2_300);
    // 4060004 (token expired) or, were the flow itself gone, 4060005.
    await expectRefused(portaal, newBrowser(portaal.publicUrl), link, [4060004, 4060005]);
    const identity = await identityOf(portaal, email);
    expect(identity.verifiable_addresses[0].verified).toBe(false);
  });
});

describe('skipping recovery steps', () => {
  it('an invited account has no password to guess, and no password is set without following the link', async () => {
    const { portaal, admin } = normal;
    const email = uniqueEmail('uitgenodigd');
    const since = new Date();
    expect(
      (
        await api(portaal, admin, 'POST', '/users', {
          traits: { email, name: { first: 'Olga', last: 'Overgeslagen' } },
          permissions: [],
        })
      ).status,
    ).toBe(201);
    const link = linkIn((await portaal.mail.waitFor(email, { since })).text);
    const invitationFlow = new URL(link).searchParams.get('flow')!;
    const attacker = newBrowser(portaal.publicUrl);
    for (const password of ['', ' ', 'Welkom-Nieuw-Account-2026']) {
      const answer = await loginWithPassword(attacker, email, password).catch((error: Error) => error);
      expect(answer).toBeInstanceOf(Error);
    }
    // Settings without the session a followed link gives: no flow to make, none to submit, not even the
    // invitation's own flow id.
    expect((await failure(attacker.frontend.createBrowserSettingsFlow({}))).status).toBe(401);
    const direct = await post(portaal, `/self-service/settings?flow=${invitationFlow}`, {
      method: 'password',
      password: 'Gekaapt-Wachtwoord-2026',
    });
    expect(direct.status).toBe(401);
    // Signed in as someone else, the invitation's flow is still not a settings flow.
    const other = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const signedIn = newBrowser(portaal.publicUrl);
    await loginWithPassword(signedIn, other.email, other.password);
    const crossed = await post(
      portaal,
      `/self-service/settings?flow=${invitationFlow}`,
      { method: 'password', password: 'Gekaapt-Wachtwoord-2026' },
      signedIn,
    );
    expect(crossed.status).toBe(404);

    const identity = await identityOf(portaal, email);
    expect(Object.keys(identity.credentials ?? {})).not.toContain('password');
    expect(identity.verifiable_addresses[0].verified).toBe(false);
    // The person's own settings flow, handed to someone else's session, does not set their password either.
    const invited = newBrowser(portaal.publicUrl);
    const followed = await follow(portaal, invited, link);
    const settingsId = followed.location.searchParams.get('flow')!;
    const stolen = await post(
      portaal,
      `/self-service/settings?flow=${settingsId}`,
      { method: 'password', password: 'Gekaapt-Wachtwoord-2026' },
      signedIn,
    );
    expect(stolen.status).toBeGreaterThanOrEqual(400);
    expect(stolen.status).toBeLessThan(500);
    expect(Object.keys((await identityOf(portaal, email)).credentials ?? {})).not.toContain('password');
  });

  it('a recovery flow that has sent its mail issues nothing without the code', async () => {
    const { portaal } = normal;
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const attacker = newBrowser(portaal.publicUrl);
    const flow = await explained(attacker.frontend.createBrowserRecoveryFlow({}));
    const since = new Date();
    const sent = await explained(
      attacker.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: 'code', email: user.email, csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(sent.state).toBe('sent_email');
    await portaal.mail.waitFor(user.email, { since });
    const csrf_token = csrfTokenOf(sent);
    const skips: Record<string, unknown>[] = [
      { method: 'code' },
      { method: 'code', code: '' },
      { method: 'code', code: null },
      { method: 'code', code: ['123456'] },
      { method: 'code', code: { $ne: '' } },
      { method: 'code', code: true },
      { method: 'link' },
      { method: 'password', password: 'Gekaapt-Wachtwoord-2026' },
      { method: 'profile', traits: { email: user.email } },
    ];
    for (const skip of skips) {
      const answer = await post(portaal, `/self-service/recovery?flow=${flow.id}`, { ...skip, csrf_token }, attacker);
      expect(answer.status, JSON.stringify(skip)).toBeLessThan(500);
      expect(answer.text, JSON.stringify(skip)).not.toContain('/settings?flow=');
      expect((await attacker.fetch(`${portaal.publicUrl}/sessions/whoami`)).status, JSON.stringify(skip)).toBe(401);
    }
    for (const path of [`/self-service/recovery?flow=${flow.id}&token=`, `/self-service/recovery?flow=${flow.id}`]) {
      const answer = await attacker.fetch(`${portaal.publicUrl}${path}`, { redirect: 'manual' });
      expect(new URL(answer.headers.get('location') ?? portaal.publicUrl).pathname).not.toBe('/settings');
    }
    expect((await attacker.fetch(`${portaal.publicUrl}/sessions/whoami`)).status).toBe(401);
    const settings = await post(
      portaal,
      `/self-service/settings?flow=${flow.id}`,
      { method: 'password', password: 'Gekaapt-Wachtwoord-2026', csrf_token },
      attacker,
    );
    expect(settings.status).toBe(401);
    // The password is still the person's own.
    expect((await loginWithPassword(newBrowser(portaal.publicUrl), user.email, user.password)).session).toBeTruthy();
  });

  it('recovering an account that has a second factor does not get around it (checklist 14)', async () => {
    const { portaal } = normal;
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const enrolling = newBrowser(portaal.publicUrl);
    await loginWithPassword(enrolling, user.email, user.password);
    await enrolTotp(enrolling);
    const [backupCode] = await enrolLookupSecrets(enrolling);

    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserRecoveryFlow({}));
    const since = new Date();
    const sent = await explained(
      browser.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: 'code', email: user.email, csrf_token: csrfTokenOf(flow) },
      }),
    );
    const mail = await portaal.mail.waitFor(user.email, {
      since,
      filter: (m) => m.subject.startsWith('Je herstelcode'),
    });
    const code = codeIn(mail.text);
    const recovered = await failure(
      browser.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: 'code', code, csrf_token: csrfTokenOf(sent) },
      }),
    );
    expect(recovered.body.error.id).toBe('browser_location_change_required');
    const settingsId = new URL(recovered.body.redirect_browser_to).searchParams.get('flow')!;

    // The recovery session is aal1: no whoami, no password change, until the second factor is given.
    const whoami = await failure(browser.frontend.toSession());
    expect(whoami.status).toBe(403);
    expect(whoami.body.error.id).toBe('session_aal2_required');
    const refused = await post(
      portaal,
      `/self-service/settings?flow=${settingsId}`,
      { method: 'password', password: 'Gekaapt-Wachtwoord-2026', csrf_token: csrfTokenOf(sent) },
      browser,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.id).toBe('session_aal2_required');
    // The old password still stands (and still asks for the second factor).
    expect(
      (await loginWithPassword(newBrowser(portaal.publicUrl), user.email, user.password)).redirectBrowserTo,
    ).toContain('aal=aal2');

    // With the second factor, the same session may change the password.
    const aal2 = await explained(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
    await explained(
      browser.frontend.updateLoginFlow({
        flow: aal2.id,
        updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: backupCode!, csrf_token: csrfTokenOf(aal2) },
      }),
    );
    const settings = await explained(browser.frontend.createBrowserSettingsFlow({}));
    const changed = await explained(
      browser.frontend.updateSettingsFlow({
        flow: settings.id,
        updateSettingsFlowBody: {
          method: 'password',
          password: 'Eigen-Nieuw-Wachtwoord-2026',
          csrf_token: csrfTokenOf(settings),
        },
      }),
    );
    expect(changed.state).toBe('success');
  });

  it('a recovery code works once, and the finished flow does not hand out its session again', async () => {
    const { portaal } = normal;
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const flow = await apiFlow(portaal, 'recovery');
    const since = new Date();
    await post(portaal, `/self-service/recovery?flow=${flow}`, { method: 'code', email: user.email });
    const code = codeIn((await portaal.mail.waitFor(user.email, { since })).text);
    const first = await post(portaal, `/self-service/recovery?flow=${flow}`, { method: 'code', code });
    const token = /ory_st_\w+/.exec(first.text)?.[0];
    expect(token).toBeDefined();
    // Whoever learns the flow id later (it is no secret: it stands in URLs) gets no session out of it: not by
    // sending the code, or any code, again, and not by reading the flow, which API flows allow without a session.
    for (const again of [code, '000000']) {
      const answer = await post(portaal, `/self-service/recovery?flow=${flow}`, { method: 'code', code: again });
      expect(answer.status).toBeLessThan(500);
      expect(answer.text).not.toContain('ory_st_');
    }
    const read = await fetch(`${portaal.publicUrl}/self-service/recovery/flows?id=${flow}`, {
      headers: { accept: 'application/json' },
    });
    expect(await read.text()).not.toContain('ory_st_');
    const whoami = await fetch(`${portaal.publicUrl}/sessions/whoami`, { headers: { 'X-Session-Token': token! } });
    expect(whoami.status).toBe(200);
  });
});

describe('verification codes', () => {
  async function askCode(portaal: Portaal, email: string, flow?: string) {
    const id = flow ?? (await apiFlow(portaal, 'verification'));
    const since = new Date();
    const sent = await post(portaal, `/self-service/verification?flow=${id}`, { method: 'code', email });
    expect(sent.body.state).toBe('sent_email');
    const mail = await portaal.mail.waitFor(email, {
      since,
      filter: (m) => m.subject.startsWith('Bevestig je e-mailadres'),
    });
    return { flow: id, code: codeIn(mail.text) };
  }
  const submit = (portaal: Portaal, flow: string, code: string) =>
    post(portaal, `/self-service/verification?flow=${flow}`, { method: 'code', code });

  it('are guessed at most 5 times a flow: the right code then verifies nothing', async () => {
    const { portaal } = normal;
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const { flow, code } = await askCode(portaal, user.email);
    for (let i = 0; i < 5; i += 1)
      expect(messageIds((await submit(portaal, flow, otherThan(code))).body)).toEqual([4070006]);
    const sixth = await submit(portaal, flow, code);
    expect(sixth.body.id).not.toBe(flow);
    expect(messageIds(sixth.body)).toEqual([4000001]);
    expect(await verified(portaal, user.id)).toBe(false);
  });

  it('keep counting when a new code is asked for in the same flow', async () => {
    const { portaal } = normal;
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const first = await askCode(portaal, user.email);
    for (let i = 0; i < 3; i += 1) await submit(portaal, first.flow, otherThan(first.code));
    const second = await askCode(portaal, user.email, first.flow);
    for (let i = 0; i < 2; i += 1) await submit(portaal, first.flow, otherThan(second.code));
    expect(messageIds((await submit(portaal, first.flow, second.code)).body)).toEqual([4000001]);
    expect(await verified(portaal, user.id)).toBe(false);
  });

  it('work once and only in their own flow, and are no recovery codes', async () => {
    const { portaal } = normal;
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const mine = await askCode(portaal, user.email);
    const other = await apiFlow(portaal, 'verification');
    expect(messageIds((await submit(portaal, other, mine.code)).body)).toEqual([4070006]);

    const recovery = await apiFlow(portaal, 'recovery');
    await post(portaal, `/self-service/recovery?flow=${recovery}`, { method: 'code', email: user.email });
    const asRecovery = await post(portaal, `/self-service/recovery?flow=${recovery}`, {
      method: 'code',
      code: mine.code,
    });
    expect(messageIds(asRecovery.body)).toEqual([4060006]);
    expect(asRecovery.text).not.toContain('ory_st_');
    expect(await verified(portaal, user.id)).toBe(false);

    const done = await submit(portaal, mine.flow, mine.code);
    expect(done.body.state).toBe('passed_challenge');
    expect(await verified(portaal, user.id)).toBe(true);
    const again = await submit(portaal, mine.flow, mine.code);
    expect(again.status).toBeLessThan(500);
    expect(again.body.state).not.toBe('passed_challenge');
  });

  it('die after their lifespan', async () => {
    const { portaal } = shortLived;
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const { flow, code } = await askCode(portaal, user.email);
    await pause(2_300);
    expect(messageIds((await submit(portaal, flow, code)).body)).toEqual([4070006]);
    expect(await verified(portaal, user.id)).toBe(false);
  });
});
