import { describe, expect, it } from 'vitest';
import { SoftwareAuthenticator } from '../../../../../e2e/support/software-authenticator.js';
import {
  finishLogin,
  finishRegistration,
  parseLoginAnswer,
  parseRegistrationAnswer,
  type RelyingParty,
  startLogin,
  startRegistration,
} from './ceremonies.js';

const ORIGIN = 'https://portaal.gemeente.nl';
const at = (iso: string): RelyingParty => ({
  id: 'portaal.gemeente.nl',
  name: 'Portaal',
  origins: [ORIGIN],
  now: new Date(iso),
});

/** A passkey made at 12:00 through the real ceremony, with the authenticator that holds it. */
async function registeredPasskey() {
  const authenticator = new SoftwareAuthenticator(ORIGIN);
  const rp = at('2026-11-26T12:00:00Z');
  const user = { handle: Buffer.from('handle'), name: 'anna@voorbeeldstad.nl' };
  const { options, state } = await startRegistration(rp, 'passkey', user, []);
  const answer = parseRegistrationAnswer(authenticator.create(options))!;
  const key = await finishRegistration(rp, state, answer, { displayName: '', passwordless: true, now: rp.now });
  return { authenticator, key: key! };
}

describe('WebAuthn ceremonies', () => {
  it('answer a challenge only within the five minutes go-webauthn gives it', async () => {
    const { authenticator, key } = await registeredPasskey();
    expect(key.added_at).toBe('2026-11-26T12:00:00Z');
    const { options, state } = await startLogin(at('2026-11-26T12:01:00Z'), 'passkey', undefined);
    const answer = parseLoginAnswer(authenticator.get(options))!;
    expect(await finishLogin(at('2026-11-26T12:06:01Z'), state, answer, key)).toBeUndefined();
    expect(await finishLogin(at('2026-11-26T12:05:59Z'), state, answer, key)).toBeDefined();
  });

  it('refuse another origin and flag a counter that does not rise without refusing it', async () => {
    const { authenticator, key } = await registeredPasskey();
    const rp = at('2026-11-26T12:01:00Z');
    const first = await startLogin(rp, 'passkey', undefined);
    const foreign = parseLoginAnswer(authenticator.get(first.options, { origin: 'https://aanvaller.example' }))!;
    expect(await finishLogin(rp, first.state, foreign, key)).toBeUndefined();

    const rising = await finishLogin(rp, first.state, parseLoginAnswer(authenticator.get(first.options))!, key);
    expect(rising).toMatchObject({ counterDidNotRise: false, key: { authenticator: { clone_warning: false } } });
    const used = rising!.key;
    const again = await startLogin(rp, 'passkey', undefined);
    const copied = parseLoginAnswer(authenticator.get(again.options, { signCount: 1 }))!;
    const flagged = await finishLogin(rp, again.state, copied, used);
    expect(flagged?.counterDidNotRise).toBe(true);
    expect(flagged?.key.authenticator).toMatchObject({
      sign_count: used.authenticator.sign_count,
      clone_warning: true,
    });
  });
});
