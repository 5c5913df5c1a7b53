import { vi } from 'vitest';

/**
 * jsdom has no WebAuthn: this stands in for the browser's `navigator.credentials` and `PublicKeyCredential` (the
 * browser, not our code, is faked; the real ceremony runs in Chromium's virtual authenticator in
 * e2e/browser/passkeys.test.ts). `autofill`: what a conditional request does (answer at once, wait until stopped,
 * or refuse at once); `refuse`: the person cancels every
 * request.
 */
export function fakeAuthenticator(options: { autofill?: 'answer' | 'wait' | 'refuse'; refuse?: boolean } = {}) {
  const requests: { kind: 'get' | 'create'; options: CredentialRequestOptions | CredentialCreationOptions }[] = [];
  const bytes = (text: string) => new TextEncoder().encode(text).buffer;
  // A function, as the browser's constructor is: libraries test `typeof PublicKeyCredential === 'function'`.
  const FakePublicKeyCredential = Object.assign(() => undefined, {
    isConditionalMediationAvailable: async () => true,
    isUserVerifyingPlatformAuthenticatorAvailable: async () => true,
  });
  const assertion = {
    id: 'a2V5LTE',
    rawId: bytes('key-1'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: {
      authenticatorData: bytes('authenticator-data'),
      clientDataJSON: bytes('{"type":"webauthn.get"}'),
      signature: bytes('signature'),
      userHandle: bytes('user-1'),
    },
    getClientExtensionResults: () => ({}),
  };
  const attestation = {
    id: 'a2V5LTI',
    rawId: bytes('key-2'),
    type: 'public-key',
    authenticatorAttachment: 'cross-platform',
    response: {
      attestationObject: bytes('attestation'),
      clientDataJSON: bytes('{"type":"webauthn.create"}'),
      getTransports: () => ['usb'],
    },
    getClientExtensionResults: () => ({}),
  };
  const refusal = () => new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError');
  const credentials = {
    get: vi.fn(async (request: CredentialRequestOptions) => {
      requests.push({ kind: 'get', options: request });
      if (request.mediation === 'conditional' && options.autofill === 'refuse') throw refusal();
      if (request.mediation === 'conditional' && options.autofill !== 'answer') {
        return new Promise((_, reject) =>
          request.signal?.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError'))),
        );
      }
      if (options.refuse) throw refusal();
      return assertion;
    }),
    create: vi.fn(async (request: CredentialCreationOptions) => {
      requests.push({ kind: 'create', options: request });
      if (options.refuse) throw refusal();
      return attestation;
    }),
  };
  vi.stubGlobal('PublicKeyCredential', FakePublicKeyCredential);
  Object.defineProperty(window.navigator, 'credentials', { value: credentials, configurable: true });
  return requests;
}

/** Options as Kratos puts them in a node's value: `{"publicKey": …}`, the challenge in base64url. */
export const requestOptions = JSON.stringify({
  publicKey: {
    challenge: 'Y2hhbGxlbmdlLTE',
    timeout: 60000,
    rpId: 'localhost',
    allowCredentials: [],
    userVerification: 'required',
  },
});

export const creationOptions = JSON.stringify({
  publicKey: {
    challenge: 'Y2hhbGxlbmdlLTI',
    rp: { name: 'Datavoorzieningen Portaal', id: 'localhost' },
    user: { id: 'dXNlci0x', name: 'ali@dego.nl', displayName: 'ali@dego.nl' },
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    timeout: 60000,
    authenticatorSelection: { userVerification: 'preferred' },
    attestation: 'none',
  },
});

/** A Kratos UI node of the WebAuthn kinds, with the attributes Kratos' snapshots show. */
export const webauthnNode = (
  name: string,
  group: 'webauthn' | 'passkey',
  type: string,
  extra: Record<string, unknown> = {},
  label?: { id: number; text: string; context?: Record<string, unknown> },
) => ({
  type: 'input',
  group,
  attributes: { node_type: 'input', name, type, disabled: false, ...extra },
  messages: [] as unknown[],
  meta: label ? { label: { ...label, type: 'info' } } : {},
});
