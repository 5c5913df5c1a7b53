import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { attemptLogin } from '../support/flows.js';
import { STRONG_PASSWORD, uniqueEmail } from '../support/identities.js';
import { failure, newBrowser } from '../support/ory.js';
import {
  DEMO_PASSWORD,
  api,
  auditEntries,
  portaalCli,
  signInAtAal1,
  signInAtAal2,
  type Person,
} from '../support/portal-users.js';

/**
 * The home organisation's administrators end every session of a person ('Afmelden op alle apparaten') and lift the
 * lock after too many failed sign-ins ('Ontgrendelen'); both are audited, and refused to anyone else.
 */
let portaal: Deployment;
let bea: Person;
beforeAll(async () => {
  portaal = await startDeployment({ args: ['--demo'] });
  bea = await signInAtAal2(portaal, 'beheerder@voorbeeldstad.nl', DEMO_PASSWORD);
});
afterAll(async () => {
  await portaal?.stop();
});

/** A Voorbeeldstad member who signs in with a password (made with the CLI, with a password of its own). */
async function member(): Promise<{ id: string; email: string }> {
  const email = uniqueEmail('lid');
  const made = portaalCli(portaal, [
    'user',
    'create',
    '--email',
    email,
    '--first-name',
    'Lid',
    '--last-name',
    'Lokaal',
    '--password',
    STRONG_PASSWORD,
    '--org',
    'voorbeeldstad',
  ]);
  expect(made.status, made.stderr).toBe(0);
  const listed = await api(portaal, bea.browser, 'GET', `/users?email=${encodeURIComponent(email)}`);
  return { id: listed.body[0].id, email };
}

describe("a person's sessions and lock, for the home organisation", () => {
  it('ends every session of a person, audited', async () => {
    const person = await member();
    const signedIn = await signInAtAal1(portaal, person.email, STRONG_PASSWORD);
    expect((await signedIn.browser.fetch(`${portaal.publicUrl}/sessions/whoami`)).status).not.toBe(401);
    const ended = await api(portaal, bea.browser, 'DELETE', `/users/${person.id}/sessions`);
    expect(ended.status).toBe(204);
    expect((await signedIn.browser.fetch(`${portaal.publicUrl}/sessions/whoami`)).status).toBe(401);
    const entry = (await auditEntries(portaal, bea.browser)).find(
      (e) => e.action === 'user.end_sessions' && e.objectId === person.id,
    );
    expect(entry).toMatchObject({ result: 'success', actorEmail: 'beheerder@voorbeeldstad.nl' });
  });

  it('shows a lock after ten failed sign-ins and lifts it, after which the right password works again', async () => {
    const person = await member();
    const browser = newBrowser(portaal.publicUrl);
    for (let attempt = 0; attempt < 10; attempt++)
      await failure(attemptLogin(browser, person.email, 'Fout-Wachtwoord-1'));
    expect((await failure(attemptLogin(browser, person.email, STRONG_PASSWORD))).status).toBe(400);

    const listed = (await api(portaal, bea.browser, 'GET', `/users?email=${encodeURIComponent(person.email)}`)).body[0];
    const unlocked = await api(portaal, bea.browser, 'DELETE', `/users/${person.id}/lock`);
    if (portaal.backend === 'ory') {
      // Kratos keeps no such lock: nothing to show, and the call says so.
      expect(listed.lockedUntil).toBeUndefined();
      expect([unlocked.status, unlocked.body.error.id]).toEqual([409, 'unlock_unavailable']);
      return;
    }
    expect(new Date(listed.lockedUntil).getTime()).toBeGreaterThan(Date.now());
    expect(unlocked.status).toBe(204);
    expect((await attemptLogin(newBrowser(portaal.publicUrl), person.email, STRONG_PASSWORD)).session).toBeDefined();
    const after = (await api(portaal, bea.browser, 'GET', `/users?email=${encodeURIComponent(person.email)}`)).body[0];
    expect(after.lockedUntil).toBeUndefined();
    const entry = (await auditEntries(portaal, bea.browser)).find(
      (e) => e.action === 'user.unlock' && e.objectId === person.id,
    );
    expect(entry?.result).toBe('success');
  });

  it('refuses both to an administrator of another organisation', async () => {
    const person = await member();
    const email = uniqueEmail('dijkstad');
    portaalCli(portaal, [
      'user',
      'create',
      '--email',
      email,
      '--first-name',
      'D',
      '--last-name',
      'S',
      '--password',
      STRONG_PASSWORD,
      '--org',
      'dijkstad',
      '--admin',
    ]);
    const other = await signInAtAal2(portaal, email, STRONG_PASSWORD);
    expect((await api(portaal, other.browser, 'DELETE', `/users/${person.id}/sessions`)).status).toBe(404);
    expect((await api(portaal, other.browser, 'DELETE', `/users/${person.id}/lock`)).status).toBe(404);
  });
});
