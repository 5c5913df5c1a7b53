import crypto from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in the test process, for the API journeys of e2e/api/passkeys.test.ts: it makes P-256 keys
 * with node:crypto and answers the provider's options as a browser with an authenticator would, so the provider's
 * checks (challenge, origin, RP ID, signature, counter, user verification) run on real ceremonies. CBOR comes from
 * `@simplewebauthn/server`'s helpers. Options and answers are the JSON the provider's nodes and inputs carry.
 */

/** A key the authenticator holds. */
export interface SoftwareKey {
  id: Buffer;
  rpId: string;
  userHandle: Buffer;
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  signCount: number;
}

interface PublicKeyOptions {
  challenge: string;
  rp?: { id?: string; name: string };
  rpId?: string;
  user?: { id: string; name: string };
  allowCredentials?: { id: string }[];
  excludeCredentials?: { id: string }[];
}

/** What a ceremony may be told to do differently from an honest browser, to test the provider's refusals. */
export interface CeremonyTweaks {
  origin?: string;
  rpId?: string;
  /** The user-verified flag; true unless told. */
  userVerified?: boolean;
  /** The counter to report instead of the next one. */
  signCount?: number;
  /** Sign in with this key whatever the options allow; register this key again instead of a new one. */
  key?: SoftwareKey;
  /** Answer this challenge instead of the one in the options. */
  challenge?: string;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
};

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;
// The AAGUID of Chromium's virtual authenticator is all zeros; this one is recognisable in stored credentials.
const AAGUID = Buffer.from('5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e', 'hex');

/** Options as the provider's nodes carry them: `{publicKey}`, or wrapped in `credentialOptions` (registration). */
function publicKeyOf(options: unknown): PublicKeyOptions {
  const parsed = (typeof options === 'string' ? JSON.parse(options) : options) as Record<string, any>;
  return (parsed.credentialOptions ?? parsed).publicKey as PublicKeyOptions;
}

/** The COSE_Key (EC2, P-256, ES256) of a public key, as an authenticator reports it (and Kratos stores it). */
export function coseKey(publicKey: crypto.KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}

/**
 * A new P-256 key pair, made by ECDH and imported as a JWK rather than by `generateKeyPairSync`, whose key generation
 * job can hang for ever on Node 20 when a garbage collection runs inside the call (seen with RSA keys;
 * docs/architecture.md, "Single sign-on for the data services"). ECDH makes its keys without that job.
 */
export function p256KeyPair(): { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject } {
  const ecdh = crypto.createECDH('prime256v1');
  const point = ecdh.generateKeys(); // 0x04, then x and y of 32 bytes each
  const field = (bytes: Buffer) => Buffer.concat([Buffer.alloc(32 - bytes.length), bytes]).toString('base64url');
  const privateKey = crypto.createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: field(point.subarray(1, 33)),
      y: field(point.subarray(33)),
      d: field(ecdh.getPrivateKey()),
    },
  });
  return { privateKey, publicKey: crypto.createPublicKey(privateKey) };
}

export class SoftwareAuthenticator {
  readonly keys: SoftwareKey[] = [];

  constructor(private readonly origin: string) {}

  /** `navigator.credentials.create`: a new key; returns the JSON the page writes into the hidden input. */
  create(options: unknown, tweaks: CeremonyTweaks = {}): string {
    const publicKey = publicKeyOf(options);
    const rpId = tweaks.rpId ?? publicKey.rp?.id ?? new URL(this.origin).hostname;
    const pair = tweaks.key ?? p256KeyPair();
    const key: SoftwareKey = tweaks.key ?? {
      id: crypto.randomBytes(32),
      rpId,
      userHandle: Buffer.from(publicKey.user?.id ?? '', 'base64url'),
      privateKey: pair.privateKey,
      publicKey: pair.publicKey,
      signCount: 0,
    };
    if (!tweaks.key) this.keys.push(key);
    const pub = key.publicKey;
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: tweaks.challenge ?? publicKey.challenge,
      origin: tweaks.origin ?? this.origin,
      crossOrigin: false,
    });
    const flags = UP | AT | (tweaks.userVerified === false ? 0 : UV);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(key.id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      u32(0),
      AAGUID,
      idLength,
      key.id,
      Buffer.from(coseKey(pub)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return JSON.stringify({
      id: b64url(key.id),
      rawId: b64url(key.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(Buffer.from(clientData)),
        attestationObject: b64url(attestationObject),
        transports: ['usb'],
      },
      clientExtensionResults: {},
    });
  }

  /** `navigator.credentials.get`: signs the challenge with an allowed key (or a key for the RP when none is named). */
  get(options: unknown, tweaks: CeremonyTweaks = {}): string {
    const publicKey = publicKeyOf(options);
    const asked = publicKey.rpId ?? new URL(this.origin).hostname;
    const rpId = tweaks.rpId ?? asked;
    const allowed = publicKey.allowCredentials?.map((c) => c.id);
    const key =
      tweaks.key ??
      this.keys.find((k) => (allowed && allowed.length > 0 ? allowed.includes(b64url(k.id)) : k.rpId === asked));
    if (!key) throw new Error('the software authenticator holds no key for these options');
    key.signCount = tweaks.signCount ?? key.signCount + 1;
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: tweaks.challenge ?? publicKey.challenge,
        origin: tweaks.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const flags = UP | (tweaks.userVerified === false ? 0 : UV);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), u32(key.signCount)]);
    const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientData)]), key.privateKey);
    return JSON.stringify({
      id: b64url(key.id),
      rawId: b64url(key.id),
      type: 'public-key',
      response: {
        authenticatorData: b64url(authData),
        clientDataJSON: b64url(clientData),
        signature: b64url(signature),
        userHandle: b64url(key.userHandle),
      },
      clientExtensionResults: {},
    });
  }
}
