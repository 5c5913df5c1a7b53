// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webAuthnScript } from './browser-script.js';

// The attack: a browser holding a passkey the portal removed answers the e-mail field's autofill (conditional
// mediation) at once. The script submits the answer, the provider refuses it and shows the same flow again with a new
// challenge, the page loads, the script asks again: hundreds of refused sign-ins in seconds, which lock out everyone
// behind the address (docs/security.md#45-brute-force-limits-and-lockout). The script asks the autofill once per flow.

const options = JSON.stringify({ publicKey: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', allowCredentials: [] } });
const bytes = (text: string) => new TextEncoder().encode(text).buffer;
const assertion = {
  id: 'a2V5LTE',
  rawId: bytes('key-1'),
  type: 'public-key',
  response: {
    authenticatorData: bytes('authenticator-data'),
    clientDataJSON: bytes('{}'),
    signature: bytes('signature'),
    userHandle: bytes('user-1'),
  },
};

/** A page load of a login flow's form as Ory Elements renders it, with the script run afresh. */
function loadPage(flow: string) {
  document.body.innerHTML = `
    <form action="/self-service/login?flow=${flow}" method="POST">
      <input name="identifier" autocomplete="username webauthn">
      <input type="hidden" name="passkey_challenge" value='${options}'>
      <input type="hidden" name="passkey_login">
    </form>`;
  const w = window as unknown as Record<string, unknown>;
  delete w.__oryWebAuthnInitialized;
  new Function(webAuthnScript)();
  return (w.oryPasskeyLoginAutocompleteInit as () => Promise<void>)();
}

describe('the WebAuthn script', () => {
  const get = vi.fn(async (_request: CredentialRequestOptions) => assertion);
  const submit = vi.fn();
  const formSubmit = HTMLFormElement.prototype.submit;

  afterEach(() => {
    vi.unstubAllGlobals();
    get.mockClear();
    submit.mockClear();
    window.sessionStorage.clear();
    HTMLFormElement.prototype.submit = formSubmit;
  });

  it('asks the autofill once per flow: a refused passkey is not sent again on every page load', async () => {
    vi.stubGlobal(
      'PublicKeyCredential',
      Object.assign(() => undefined, { isConditionalMediationAvailable: async () => true }),
    );
    Object.defineProperty(window.navigator, 'credentials', { value: { get }, configurable: true });
    HTMLFormElement.prototype.submit = submit;

    await loadPage('f1');
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0]?.[0]).toMatchObject({ mediation: 'conditional' });
    expect(submit).toHaveBeenCalledTimes(1);
    expect(JSON.parse((document.getElementsByName('passkey_login')[0] as HTMLInputElement).value)).toMatchObject({
      id: 'a2V5LTE',
    });

    // The provider refused it: the same flow comes back, with a new challenge, again and again.
    for (let reload = 0; reload < 5; reload++) await loadPage('f1');
    expect(get, 'autofill requests on the refused flow').toHaveBeenCalledTimes(1);
    expect(submit, 'sign-ins sent by the autofill').toHaveBeenCalledTimes(1);

    // A new flow (the person started over) asks once more.
    await loadPage('f2');
    expect(get).toHaveBeenCalledTimes(2);
    expect(submit).toHaveBeenCalledTimes(2);
  });
});
