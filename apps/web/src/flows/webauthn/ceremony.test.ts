import { WebAuthnError } from '@simplewebauthn/browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeAuthenticator } from '../../test-webauthn';
import { reasonOf } from './ceremony';

afterEach(() => vi.unstubAllGlobals());

const failure = (code: ConstructorParameters<typeof WebAuthnError>[0]['code']) =>
  new WebAuthnError({ message: 'x', code, cause: new DOMException('x', 'SecurityError') });

describe('reasonOf', () => {
  it('says in Dutch that keys do not work on an IP address or a foreign domain, not to try again', () => {
    fakeAuthenticator();
    for (const code of ['ERROR_INVALID_DOMAIN', 'ERROR_INVALID_RP_ID'] as const) {
      const reason = reasonOf(failure(code), 'get');
      expect(reason).toContain('werken niet op dit adres van het portaal');
      expect(reason).not.toContain('Probeer het opnieuw');
    }
  });

  it('asks to try again after a cancelled request, and says nothing when the portal stopped it', () => {
    fakeAuthenticator();
    const cancelled = new WebAuthnError({
      message: 'x',
      code: 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY',
      cause: new DOMException('x', 'NotAllowedError'),
    });
    expect(reasonOf(cancelled, 'create')).toBe('Het toevoegen is gestopt of duurde te lang. Probeer het opnieuw.');
    expect(reasonOf(failure('ERROR_CEREMONY_ABORTED'), 'get')).toBeUndefined();
  });
});
