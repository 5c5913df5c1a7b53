import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import type { IdpContext } from '../../context.js';
import { saveFlowIfUnchanged, type Flow } from '../../flows/flow.js';
import { base64ToBase64Url, fromBase64, toBase64, type KeyKind, type StoredWebAuthnKey } from './credential-config.js';

/**
 * The WebAuthn library, loaded at the first ceremony rather than at start: it (and the ASN.1 and CBOR code it brings)
 * costs about 200 ms and 25 MiB, which a portal that is only starting need not pay.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => {
  library ??= import('@simplewebauthn/server');
  return library;
};

// go-webauthn's defaults, which Kratos uses: five minutes, and these algorithms in this order.
const TIMEOUT_MS = 300_000;
const ALGORITHMS = [-7, -35, -36, -257, -258, -259, -37, -38, -39, -8];

/**
 * Who the keys are for: the relying party's id (a host name), its name, and the origins a ceremony may come from;
 * with the time of the request, which bounds how long a challenge may be answered.
 */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
  now: Date;
}

/** The relying party of the provider (docs/kratos-compatibility.md#passkeys-and-security-keys). */
export function relyingParty(idp: Pick<IdpContext, 'config' | 'clock'>): RelyingParty {
  const { config } = idp;
  return {
    id: config.webauthn?.rpId ?? config.publicUrl.hostname,
    name: config.webauthn?.rpDisplayName ?? config.publicUrl.hostname,
    origins: [config.publicUrl.origin],
    now: idp.clock.now(),
  };
}

/**
 * What a ceremony's start leaves in the flow's internal context (Kratos' `<method>.session_data`) for its finish:
 * the one challenge the answer must sign, and the user handle a new key is created for.
 */
export interface CeremonyState {
  challenge: string;
  user_id?: string;
  user_verification: 'required' | 'preferred';
  /** As go-webauthn's session data: the challenge is answered within the ceremony's timeout or not at all. */
  expires_at: string;
}

const expiresAt = (rp: RelyingParty) => new Date(rp.now.getTime() + TIMEOUT_MS).toISOString();
const expired = (rp: RelyingParty, state: CeremonyState) => !(Date.parse(state.expires_at) >= rp.now.getTime());

/** The options as Kratos hands them to the browser: the WebAuthn JSON, binary fields in base64url. */
export type BrowserOptions = { publicKey: Record<string, unknown> };

/** Security keys need no user verification (preferred); passkeys stand alone, so they must verify the user. */
const verificationOf = (kind: KeyKind) => (kind === 'passkey' ? 'required' : 'preferred');

const descriptor = (key: StoredWebAuthnKey) => ({
  id: base64ToBase64Url(key.id),
  transports: key.transport as AuthenticatorTransport[] | undefined,
});

/** Starts creating a key of `kind` for a user (handle and name): the options for the browser and the state. */
export async function startRegistration(
  rp: RelyingParty,
  kind: KeyKind,
  user: { handle: Uint8Array; name: string },
  exclude: StoredWebAuthnKey[],
): Promise<{ options: BrowserOptions; state: CeremonyState }> {
  const userVerification = verificationOf(kind);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new Uint8Array(user.handle),
    userName: user.name,
    userDisplayName: user.name,
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: exclude.map(descriptor),
    authenticatorSelection:
      kind === 'passkey'
        ? { residentKey: 'required', requireResidentKey: true, userVerification }
        : { residentKey: 'discouraged', requireResidentKey: false, userVerification },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  return {
    options: { publicKey: options as unknown as Record<string, unknown> },
    state: {
      challenge: options.challenge,
      user_id: options.user.id,
      user_verification: userVerification,
      expires_at: expiresAt(rp),
    },
  };
}

/** Starts a sign-in: with the allowed keys (second factor), or without (a passkey the authenticator chooses). */
export async function startLogin(
  rp: RelyingParty,
  kind: KeyKind,
  allow: StoredWebAuthnKey[] | undefined,
): Promise<{ options: BrowserOptions; state: CeremonyState }> {
  const userVerification = verificationOf(kind);
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rp.id,
    timeout: TIMEOUT_MS,
    userVerification,
    allowCredentials: allow?.map(descriptor),
  });
  return {
    options: { publicKey: options as unknown as Record<string, unknown> },
    state: { challenge: options.challenge, user_verification: userVerification, expires_at: expiresAt(rp) },
  };
}

/** The browser's answer as JSON, or undefined when it is not the shape of one. */
function parseAnswer(text: unknown, part: 'attestationObject' | 'authenticatorData'): unknown {
  if (typeof text !== 'string' || text.length > 64 * 1024) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const answer = value as Record<string, unknown>;
  const response = answer.response as Record<string, unknown> | undefined;
  const ok =
    typeof answer.id === 'string' &&
    typeof answer.rawId === 'string' &&
    answer.type === 'public-key' &&
    !!response &&
    typeof response === 'object' &&
    typeof response.clientDataJSON === 'string' &&
    typeof response[part] === 'string';
  return ok ? answer : undefined;
}

export const parseRegistrationAnswer = (text: unknown) =>
  parseAnswer(text, 'attestationObject') as RegistrationResponseJSON | undefined;
export const parseLoginAnswer = (text: unknown) =>
  parseAnswer(text, 'authenticatorData') as AuthenticationResponseJSON | undefined;

/** A stored state of the flow, or undefined (none started, or already used). */
function ceremonyStateOf(internal: Record<string, unknown>, kind: KeyKind): CeremonyState | undefined {
  const held = internal[kind] as { session_data?: CeremonyState } | undefined;
  const state = held?.session_data;
  return state && typeof state.challenge === 'string' ? state : undefined;
}

/** Keeps the state in the flow's internal context, where Kratos keeps it (`<method>.session_data`). */
export function keepCeremonyState(internal: Record<string, unknown>, kind: KeyKind, state: CeremonyState): void {
  internal[kind] = { session_data: state };
}

/** A challenge is answered once: it leaves the flow before the answer is checked. */
function takeCeremonyState(internal: Record<string, unknown>, kind: KeyKind): CeremonyState | undefined {
  const state = ceremonyStateOf(internal, kind);
  delete internal[kind];
  return state;
}

/**
 * Takes the flow's challenge and stores the flow without it at once, only if no other request changed the flow
 * since it was read: of concurrent requests answering the same challenge, only the first gets it.
 */
export async function claimCeremonyState(
  idp: Pick<IdpContext, 'db' | 'clock'>,
  flow: Flow,
  kind: KeyKind,
): Promise<CeremonyState | undefined> {
  const state = takeCeremonyState(flow.internal, kind);
  if (!state) return undefined;
  return (await saveFlowIfUnchanged(idp.db.kysely, idp.clock, flow)) ? state : undefined;
}

/**
 * Checks a new key's attestation against the challenge, the origin and the RP ID; the key in Kratos' shape, or
 * undefined when the answer is refused.
 */
export async function finishRegistration(
  rp: RelyingParty,
  state: CeremonyState,
  answer: RegistrationResponseJSON,
  key: { displayName: string; passwordless: boolean; now: Date },
): Promise<StoredWebAuthnKey | undefined> {
  if (expired(rp, state)) return undefined;
  let verified: VerifiedRegistrationResponse;
  try {
    verified = await (await webauthn()).verifyRegistrationResponse({
      response: answer,
      expectedChallenge: state.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: state.user_verification === 'required',
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch {
    return undefined;
  }
  if (!verified.verified || !verified.registrationInfo) return undefined;
  const info = verified.registrationInfo;
  const addedAt = new Date(Math.round(key.now.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  return {
    id: toBase64(Buffer.from(info.credential.id, 'base64url')),
    public_key: toBase64(info.credential.publicKey),
    attestation_type: info.fmt,
    authenticator: {
      aaguid: toBase64(Buffer.from(info.aaguid.replace(/-/g, ''), 'hex')),
      sign_count: info.credential.counter,
      clone_warning: false,
    },
    display_name: key.displayName,
    added_at: addedAt,
    is_passwordless: key.passwordless,
    flags: {
      user_present: true,
      user_verified: info.userVerified,
      backup_eligible: info.credentialDeviceType === 'multiDevice',
      backup_state: info.credentialBackedUp,
    },
    ...(info.credential.transports?.length ? { transport: info.credential.transports } : {}),
  };
}

/** What a verified sign-in changes on the key: its counter, the clone warning, the backup state. */
export interface LoginResult {
  key: StoredWebAuthnKey;
  /** The authenticator's counter did not rise: a copy of the key may be in use (WebAuthn §6.1.1). */
  counterDidNotRise: boolean;
}

/**
 * Checks an assertion against the challenge, the origin, the RP ID and the key's public key; the key as it is after
 * this sign-in, or undefined when the answer is refused. A counter that does not rise is no refusal (as in Kratos):
 * the key gets `clone_warning` and the caller logs it.
 */
export async function finishLogin(
  rp: RelyingParty,
  state: CeremonyState,
  answer: AuthenticationResponseJSON,
  key: StoredWebAuthnKey,
): Promise<LoginResult | undefined> {
  if (expired(rp, state)) return undefined;
  let verified: VerifiedAuthenticationResponse;
  try {
    verified = await (await webauthn()).verifyAuthenticationResponse({
      response: answer,
      expectedChallenge: state.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: state.user_verification === 'required',
      // The library refuses a counter that does not rise; Kratos signs in and flags the key, so the check is ours.
      credential: {
        id: base64ToBase64Url(key.id),
        publicKey: new Uint8Array(fromBase64(key.public_key)),
        counter: 0,
      },
    });
  } catch {
    return undefined;
  }
  if (!verified.verified) return undefined;
  const { newCounter, credentialBackedUp } = verified.authenticationInfo;
  const stored = key.authenticator.sign_count;
  const counterDidNotRise = (stored > 0 || newCounter > 0) && newCounter <= stored;
  return {
    counterDidNotRise,
    key: {
      ...key,
      authenticator: {
        ...key.authenticator,
        sign_count: Math.max(stored, newCounter),
        clone_warning: key.authenticator.clone_warning || counterDidNotRise,
      },
      ...(key.flags ? { flags: { ...key.flags, backup_state: credentialBackedUp } } : {}),
    },
  };
}
