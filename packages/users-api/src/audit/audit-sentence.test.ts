import { describe, expect, it } from 'vitest';
import type { AuditRecord } from './audit-log.js';
import { AUDIT_ACTIONS, actionLabel, sentenceOf } from './audit-sentence.js';

const entry = (action: string, result: AuditRecord['result'] = 'success'): AuditRecord => ({
  id: 'e1',
  at: '2026-11-27T10:00:00.000Z',
  organisationId: 'voorbeeldstad',
  actorId: 'a1',
  actorEmail: 'anne@voorbeeldstad.nl',
  action,
  objectId: 'p1',
  objectEmail: 'piet@voorbeeldstad.nl',
  result,
  clientAddress: null,
  details: null,
});

const names = new Map([
  ['a1', 'Anne de Vries'],
  ['p1', 'Piet Jansen'],
]);

describe('an audit entry in Dutch', () => {
  it('names who acted and whom it was about, by their name or else their recorded address', () => {
    expect(sentenceOf(entry('user.block'), names)).toBe('Anne de Vries heeft Piet Jansen geblokkeerd');
    expect(sentenceOf(entry('user.block', 'denied'), names)).toBe('Anne de Vries probeerde Piet Jansen te blokkeren');
    expect(sentenceOf(entry('user.delete'), new Map())).toBe(
      'anne@voorbeeldstad.nl heeft piet@voorbeeldstad.nl verwijderd',
    );
  });

  it('says a failed, a locked and a passed sign-in apart, and keys added in the settings', () => {
    expect(sentenceOf(entry('sign_in.totp', 'failure'), names)).toBe(
      'Mislukte inlogpoging met de authenticator-app voor Piet Jansen',
    );
    expect(sentenceOf(entry('sign_in.password', 'locked'), names)).toBe(
      'Piet Jansen is vergrendeld na te veel mislukte inlogpogingen',
    );
    expect(sentenceOf(entry('passkey.add'), names)).toBe('Anne de Vries heeft een passkey toegevoegd');
  });

  it('says what a person changed of their own ways to sign in', () => {
    const said = (action: string) => sentenceOf(entry(action), names);
    expect(said('password.add')).toBe('Anne de Vries heeft een wachtwoord ingesteld');
    expect(said('password.change')).toBe('Anne de Vries heeft het wachtwoord gewijzigd');
    expect(said('totp.add')).toBe('Anne de Vries heeft een authenticator-app gekoppeld');
    expect(said('totp.remove')).toBe('Anne de Vries heeft de authenticator-app ontkoppeld');
    expect(said('lookup_secret.add')).toBe('Anne de Vries heeft nieuwe back-upcodes gemaakt');
    expect(said('lookup_secret.remove')).toBe('Anne de Vries heeft de back-upcodes verwijderd');
    expect(actionLabel('totp.remove')).toBe('Authenticator-app ontkoppeld');
  });

  it('shows an action it has no words for as stored, and labels every action it filters on', () => {
    expect(sentenceOf(entry('catalogue.reload'), names)).toBe('Anne de Vries: catalogue.reload (Piet Jansen)');
    expect(actionLabel('catalogue.reload')).toBe('catalogue.reload');
    expect(actionLabel('security_key.remove')).toBe('Beveiligingssleutel verwijderd');
    const labels = AUDIT_ACTIONS.map((action) => action.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'nl')));
  });
});
