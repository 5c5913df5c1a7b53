import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
} from '@simplewebauthn/browser';

// Loaded only when a screen shows a security key or passkey (triggers.ts), so the sign-in screen's budget holds.

type PublicKeyJson = Parameters<typeof startAuthentication>[0]['optionsJSON'];
type CreationJson = Parameters<typeof startRegistration>[0]['optionsJSON'];

/**
 * The `publicKey` options of a Kratos node value: `{"publicKey": …}`, or for a new account's passkey
 * `{"credentialOptions": {"publicKey": …}}`.
 */
function publicKeyOf(json: string): unknown {
  const parsed = JSON.parse(json) as { publicKey?: unknown; credentialOptions?: { publicKey?: unknown } };
  const publicKey = parsed.credentialOptions?.publicKey ?? parsed.publicKey;
  if (!publicKey || typeof publicKey !== 'object') throw new Error('no publicKey options');
  return publicKey;
}

/** A credential asked for (sign-in), as JSON for the flow's `webauthn_login` or `passkey_login`. */
export async function authenticate(options: string, autofill = false): Promise<string> {
  const answer = await startAuthentication({
    optionsJSON: publicKeyOf(options) as PublicKeyJson,
    useBrowserAutofill: autofill,
  });
  return JSON.stringify(answer);
}

/** A credential made (settings, a new account), as JSON for `webauthn_register` or `passkey_settings_register`. */
export async function register(options: string): Promise<string> {
  const answer = await startRegistration({ optionsJSON: publicKeyOf(options) as CreationJson });
  return JSON.stringify(answer);
}

/** Whether the browser offers passkeys in the e-mail field's suggestions. */
export const autofillAvailable = () => browserSupportsWebAuthnAutofill();

/** Stops a waiting autofill request (the screen is left, or a button starts another ceremony). */
export const cancel = () => WebAuthnAbortService.cancelCeremony();

/** Why a ceremony did not finish, in Dutch, for the person; undefined when it was only stopped by the portal. */
export function reasonOf(error: unknown, kind: 'get' | 'create'): string | undefined {
  if (!browserSupportsWebAuthn())
    return 'Deze browser kan geen beveiligingssleutels of passkeys gebruiken. Probeer een andere browser.';
  const name = error instanceof WebAuthnError ? error.code : error instanceof Error ? error.name : '';
  if (name === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError') return undefined;
  if (name === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'Deze beveiligingssleutel of passkey heb je al toegevoegd. Kies een andere.';
  // Browsers allow keys only on a domain name, and only for the portal's own: trying again would not help.
  if (name === 'ERROR_INVALID_DOMAIN' || name === 'ERROR_INVALID_RP_ID')
    return (
      'Beveiligingssleutels en passkeys werken niet op dit adres van het portaal: een browser staat ze alleen ' +
      'toe op het adres met de domeinnaam waarvoor het portaal is ingesteld, niet op een IP-adres. Log in met je ' +
      'wachtwoord, of vraag de beheerder van het portaal om het juiste adres.'
    );
  const cause = error instanceof WebAuthnError ? (error.cause as { name?: unknown } | undefined) : undefined;
  const cancelled = cause?.name === 'NotAllowedError' || name === 'NotAllowedError';
  if (cancelled)
    return kind === 'get'
      ? 'Inloggen met je beveiligingssleutel of passkey is gestopt of duurde te lang. Probeer het opnieuw.'
      : 'Het toevoegen is gestopt of duurde te lang. Probeer het opnieuw.';
  return kind === 'get'
    ? 'Inloggen met je beveiligingssleutel of passkey is niet gelukt. Probeer het opnieuw.'
    : 'Het toevoegen is niet gelukt. Probeer het opnieuw.';
}
