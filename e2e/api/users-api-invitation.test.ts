import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { csrfTokenOf, explained, newBrowser } from '../support/ory.js';
import { uniqueEmail } from '../support/identities.js';
import { enrolTotp, loginSecondFactor, loginWithPassword } from '../support/flows.js';
import {
  DEMO_PASSWORD,
  api,
  getJson,
  portaalCli,
  setPasswordThroughLink,
  signInAtAal2,
  type Person,
} from '../support/portal-users.js';

let portaal: Deployment;
let bea: Person;
let dijkstadAdmin: Person;
beforeAll(async () => {
  portaal = await startDeployment({ args: ['--demo'] });
  bea = await signInAtAal2(portaal, 'beheerder@voorbeeldstad.nl', DEMO_PASSWORD);
  const created = portaalCli(portaal, [
    'user',
    'create',
    '--email',
    'beheer@dijkstad.nl',
    '--first-name',
    'Dirk',
    '--last-name',
    'Dijk',
    '--password',
    'Polder-Molen-Sluis-42',
    '--org',
    'dijkstad',
    '--admin',
  ]);
  expect(created.status, created.stderr).toBe(0);
  dijkstadAdmin = await signInAtAal2(portaal, 'beheer@dijkstad.nl', 'Polder-Molen-Sluis-42');
});
afterAll(async () => {
  await portaal?.stop();
});

const roles = (org: string, ...ids: string[]) =>
  ids.map((id) => ({ namespace: 'subdivisions', object: `${id}_${org}`, relation: 'issuer' }));

describe('inviting a user', () => {
  it('takes the invited person from the mail to aal2 with the organisation and two data roles', async () => {
    const email = uniqueEmail('uitgenodigd');
    const since = new Date();
    const created = await api(portaal, bea.browser, 'POST', '/users', {
      traits: { email, name: { first: 'Ivo', last: 'Uitgenodigd' } },
      permissions: roles('voorbeeldstad', 'sociaal-domein', 'financien'),
    });
    expect(created.status).toBe(201);
    expect(created.body).toBe(true);

    const mail = await portaal.mail.waitFor(email, { since });
    expect(mail.subject).toBe('Je account voor het Datavoorzieningen Portaal');
    expect(mail.text).toContain('Hallo Ivo,');
    expect(mail.text).toContain('Gemeente Voorbeeldstad');
    expect(mail.text).toContain('Deze link is 72 uur geldig');
    const link = /(http:\/\/\S+token=\S+)/.exec(mail.text)![1]!;

    // The invited person, in their own browser: the link signs them in and opens settings.
    const invited = newBrowser(portaal.publicUrl);
    const followed = await invited.fetch(link, { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const settingsId = new URL(followed.headers.get('location')!).searchParams.get('flow')!;
    const settings = await invited.frontend.getSettingsFlow({ id: settingsId });
    const password = 'Eigen-Gekozen-Zin-2026';
    await explained(
      invited.frontend.updateSettingsFlow({
        flow: settings.id,
        updateSettingsFlowBody: { method: 'password', password, csrf_token: csrfTokenOf(settings) },
      }),
    );
    const secret = await enrolTotp(invited, -1);

    const later = newBrowser(portaal.publicUrl);
    await loginWithPassword(later, email, password);
    await loginSecondFactor(later, secret);
    const whoami = await api(portaal, later, 'GET', '/users/whoami');
    expect(whoami.status).toBe(200);
    expect(whoami.body.authenticator_assurance_level).toBe('aal2');
    expect(whoami.body.activeOrg).toEqual({
      id: 'voorbeeldstad',
      label: 'Gemeente Voorbeeldstad',
      subdivisions: [
        { id: 'sociaal-domein', label: 'Sociaal domein' },
        { id: 'ruimte', label: 'Ruimte en wonen' },
        { id: 'financien', label: 'Financiën' },
      ],
    });
    const dataRoles = whoami.body.permissions.filter((p: { namespace: string }) => p.namespace === 'subdivisions');
    expect(dataRoles.map((p: { roleId: string; label: string }) => [p.roleId, p.label]).sort()).toEqual([
      ['financien', 'Financiën'],
      ['sociaal-domein', 'Sociaal domein'],
    ]);
    expect(whoami.body.identity.userType.id).toBe('analyst');
    const verified = await getJson(`${portaal.adminUrl}/admin/identities/${whoami.body.identity.id}`);
    expect(verified.verifiable_addresses[0].verified).toBe(true);
  });

  it('needs the names only for a new account: an existing address gets its permissions without them', async () => {
    const email = uniqueEmail('zonder-naam');
    const nameless = await api(portaal, bea.browser, 'POST', '/users', {
      traits: { email },
      permissions: roles('voorbeeldstad', 'ruimte'),
    });
    expect(nameless.status).toBe(400);
    expect(nameless.body.error.message).toBe('Vul de naam in van de gebruiker (1 tot 50 tekens).');
    expect((await api(portaal, bea.browser, 'GET', `/users?email=${encodeURIComponent(email)}`)).body).toEqual([]);

    expect(
      (
        await api(portaal, bea.browser, 'POST', '/users', {
          traits: { email, name: { first: 'Nina', last: 'Naam' } },
          permissions: [],
        })
      ).status,
    ).toBe(201);
    const added = await api(portaal, bea.browser, 'POST', '/users', {
      traits: { email },
      permissions: roles('voorbeeldstad', 'ruimte'),
    });
    expect(added.status).toBe(200);
    const [user] = (await api(portaal, bea.browser, 'GET', `/users?email=${encodeURIComponent(email)}`)).body;
    expect(user.traits.name).toEqual({ first: 'Nina', last: 'Naam' });
    expect(user.permissions.map((p: { object: string }) => p.object).sort()).toEqual([
      'ruimte_voorbeeldstad',
      'voorbeeldstad',
    ]);
  });

  it(
    'invites an existing address of another organisation: ' +
      'nothing changes until the person accepts, and only that organisation removes its own part',
    async () => {
      const email = uniqueEmail('gedeeld');
      const since = new Date();
      expect(
        (
          await api(portaal, bea.browser, 'POST', '/users', {
            traits: { email, name: { first: 'Gea', last: 'Gedeeld' } },
            permissions: roles('voorbeeldstad', 'ruimte'),
          })
        ).status,
      ).toBe(201);
      const created = await portaal.mail.waitFor(email, { since });
      const gea = await setPasswordThroughLink(
        portaal,
        email,
        /(http:\/\/\S+token=\S+)/.exec(created.text)![1]!,
        'Eigen-Gekozen-Zin-2027',
      );
      const id = (await api(portaal, gea.browser, 'GET', '/users/whoami')).body.identity.id as string;
      const objectsOf = async () =>
        (await getJson(`${portaal.adminUrl}/relation-tuples?subject_id=${id}`)).relation_tuples
          .map((t: { object: string }) => t.object)
          .sort();

      // Dijkstad submits the same address (with other names): an invitation, nothing written.
      const invited = await api(portaal, dijkstadAdmin.browser, 'POST', '/users', {
        traits: { email, name: { first: 'Anders', last: 'Genoemd' } },
        permissions: roles('dijkstad', 'veiligheid'),
      });
      expect(invited.status, JSON.stringify(invited.body)).toBe(202);
      const invitationId = invited.body.invitation.id as string;
      expect(await objectsOf()).toEqual(['ruimte_voorbeeldstad', 'voorbeeldstad']);
      const pending = (await api(portaal, dijkstadAdmin.browser, 'GET', `/users?email=${encodeURIComponent(email)}`))
        .body[0];
      expect(pending).toMatchObject({ id, credentials: [], invitation: { id: invitationId } });
      expect(pending.traits.name).toEqual({ first: 'Gea', last: 'Gedeeld' });
      expect(pending.permissions.map((p: { object: string }) => p.object)).toContain('veiligheid_dijkstad');
      expect(
        pending.permissions.every((p: { object: string }) => p.object === 'dijkstad' || p.object.endsWith('_dijkstad')),
      ).toBe(true);
      // Dijkstad cannot act on her before she has accepted.
      expect((await api(portaal, dijkstadAdmin.browser, 'PUT', `/users/${id}`, { state: 'inactive' })).status).toBe(
        404,
      );
      const whoami = (await api(portaal, gea.browser, 'GET', '/users/whoami')).body;
      expect(whoami.activeOrg.id).toBe('voorbeeldstad');
      expect(whoami.invitations.map((i: { id: string }) => i.id)).toEqual([invitationId]);

      // She accepts: Dijkstad's permissions are written, her names are hers.
      expect((await api(portaal, gea.browser, 'POST', `/invitations/${invitationId}/accept`)).status).toBe(200);
      const listed = await api(portaal, dijkstadAdmin.browser, 'GET', `/users?email=${encodeURIComponent(email)}`);
      const user = listed.body[0];
      expect(user.id).toBe(id);
      expect(user.traits.name).toEqual({ first: 'Gea', last: 'Gedeeld' });
      expect(user).toMatchObject({ home: false, credentials: [] });
      expect(user.permissions.map((p: { object: string }) => p.object).sort()).toEqual([
        'dijkstad',
        'veiligheid_dijkstad',
      ]);
      expect(await objectsOf()).toEqual(['dijkstad', 'ruimte_voorbeeldstad', 'veiligheid_dijkstad', 'voorbeeldstad']);

      // Dijkstad cannot block, reset or change the e-mail of an identity whose home is Voorbeeldstad.
      const block = await api(portaal, dijkstadAdmin.browser, 'PUT', `/users/${user.id}`, {
        schema_id: 'default',
        state: 'inactive',
        traits: user.traits,
      });
      expect(block.status).toBe(409);
      expect(block.body.error.id).toBe('user_in_other_organisation');
      expect((await api(portaal, dijkstadAdmin.browser, 'DELETE', `/users/${user.id}/totp`)).status).toBe(409);
      const rename = await api(portaal, dijkstadAdmin.browser, 'PUT', `/users/${user.id}`, {
        traits: { ...user.traits, email: uniqueEmail('anders') },
      });
      expect(rename.status).toBe(409);
      const identity = await getJson(`${portaal.adminUrl}/admin/identities/${user.id}`);
      expect(identity.state).toBe('active');
      expect(identity.traits.email).toBe(email);
      expect(Object.keys(identity.credentials)).toContain('totp');

      // Removing the user from Dijkstad keeps the identity and Voorbeeldstad's tuples.
      expect((await api(portaal, dijkstadAdmin.browser, 'DELETE', `/users?id=${user.id}`)).status).toBe(204);
      expect(await objectsOf()).toEqual(['ruimte_voorbeeldstad', 'voorbeeldstad']);
      expect((await fetch(`${portaal.adminUrl}/admin/identities/${user.id}`)).status).toBe(200);
      expect(
        (await api(portaal, dijkstadAdmin.browser, 'GET', `/users?email=${encodeURIComponent(email)}`)).body,
      ).toEqual([]);
    },
  );

  // Twelve submits of the form for one address sent twelve mails (docs/security.md#49-no-mail-bombing).
  it('mails one address at most three times however often the form is sent; the rest is 429 in Dutch', async () => {
    const email = uniqueEmail('herhaald');
    const traits = { email, name: { first: 'Herma', last: 'Herhaald' } };
    const answers = [];
    for (let n = 0; n < 12; n++) answers.push(await api(portaal, bea.browser, 'POST', '/users', { traits }));
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 200, ...Array(9).fill(429)]);
    for (const refused of answers.slice(3)) {
      expect(refused.body.error).toEqual({
        id: 'mail_throttled_recipient',
        code: 429,
        status: 'Too Many Requests',
        reason: 'Mails were sent to this address just now.',
        message: 'Er zijn net al berichten naar dit e-mailadres gestuurd. Probeer het over een paar minuten opnieuw.',
      });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter, 'Retry-After in seconds').toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
    // The courier sends after the answer: the three arrive, and a moment later still no fourth.
    await expect.poll(() => portaal.mail.to(email).length, { timeout: 20_000 }).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(portaal.mail.to(email).map((mail) => mail.subject)).toEqual(
      Array(3).fill('Je account voor het Datavoorzieningen Portaal'),
    );
  });

  it('answers password recovery for an unknown address exactly like a known one', async () => {
    const known = await api(portaal, undefined, 'GET', '/users/password-recovery?email=medewerker%40voorbeeldstad.nl');
    const unknown = await api(portaal, undefined, 'GET', '/users/password-recovery?email=niemand%40voorbeeldstad.nl');
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known.headers.get('cache-control')).toBe('no-store');
    const mail = await portaal.mail.waitFor('medewerker@voorbeeldstad.nl');
    expect(mail.text).toContain('Deze link is 15 minuten geldig');
    await new Promise((r) => setTimeout(r, 500));
    expect(portaal.mail.to('niemand@voorbeeldstad.nl')).toHaveLength(0);
    expect((await api(portaal, undefined, 'GET', '/users/password-recovery?email=geen-adres')).body.error.message).toBe(
      'E-mail is niet valide.',
    );
  });
});
