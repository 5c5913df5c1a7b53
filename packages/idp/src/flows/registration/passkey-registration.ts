import { IdentityConflictError } from '../../identities/identity-errors.js';
import crypto from 'node:crypto';
import type { IdpContext } from '../../context.js';
import { insertIdentity, saveCredential } from '../../identities/identity-repository.js';
import type { Traits } from '../../identities/identity-schema.js';
import {
  finishRegistration,
  keepCeremonyState,
  parseRegistrationAnswer,
  relyingParty,
  startRegistration,
  claimCeremonyState,
} from '../../credentials/webauthn/ceremonies.js';
import { toBase64 } from '../../credentials/webauthn/credential-config.js';
import { onclickOf, webAuthnScriptNode } from '../../credentials/webauthn/nodes.js';
import { messages, type UiText } from '../../ui/messages.js';
import { inputNode, type UiNode } from '../../ui/nodes.js';
import type { Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';

/**
 * Signing up with a passkey instead of a password, on the credential step of the two-step registration, as Kratos'
 * `passkey` strategy does (docs/kratos-compatibility.md#passkeys-and-security-keys).
 */

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new user handle as Kratos makes one: 64 random letters and digits. */
const newUserHandle = () =>
  Buffer.from(Array.from(crypto.randomBytes(64), (byte) => ALPHANUMERIC[byte % 62]).join(''), 'utf8');

/**
 * The passkey nodes of the credential step, with a fresh challenge kept in the flow. The options are wrapped as
 * Kratos wraps them for registration: `credentialOptions`, and the field the script reads the person's name from.
 */
export async function passkeyRegistrationNodes(
  idp: Pick<IdpContext, 'config' | 'clock'>,
  flow: Flow,
  traits: Traits,
): Promise<UiNode[]> {
  const { config } = idp;
  const user = { handle: newUserHandle(), name: traits.email };
  const { options, state } = await startRegistration(relyingParty(idp), 'passkey', user, []);
  keepCeremonyState(flow.internal, 'passkey', state);
  const browser = flow.type === 'browser';
  const createData = {
    credentialOptions: options,
    displayNameFieldName: 'traits.email',
    displayNameFieldNames: ['traits.email'],
  };
  return [
    inputNode('passkey', 'passkey_create_data', 'hidden', { value: JSON.stringify(createData) }),
    inputNode('passkey', 'passkey_register_trigger', 'button', {
      ...onclickOf('oryPasskeyRegistration', browser),
      onclickTrigger: 'oryPasskeyRegistration',
      label: messages.signUpWithPasskey(),
    }),
    ...(browser ? [webAuthnScriptNode(config)] : []),
    inputNode('passkey', 'passkey_register', 'hidden', {}),
  ];
}

/** Whether a submission is a passkey sign-up: Ory's React SDK sends `"true"` for an empty field, as Kratos notes. */
export const isPasskeyRegistration = (body: Record<string, unknown>): boolean =>
  body.method === 'passkey' ||
  (typeof body.passkey_register === 'string' && body.passkey_register !== '' && body.passkey_register !== 'true');

/**
 * Checks the new passkey and creates the identity with it, in one transaction: the identity's id, or the refusal
 * (a message for the flow), or undefined when the address is taken.
 */
export async function registerWithPasskey(
  ctx: FlowContext,
  flow: Flow,
  input: { traits: Traits; answer: unknown },
): Promise<{ identityId: string } | { refusal: UiText } | undefined> {
  const { db, clock } = ctx.idp;
  const state = await claimCeremonyState(ctx.idp, flow, 'passkey');
  const answer = parseRegistrationAnswer(input.answer);
  if (!answer) return { refusal: messages.generic('Unable to parse WebAuthn response.') };
  const key =
    state?.user_id &&
    (await finishRegistration(relyingParty(ctx.idp), state, answer, {
      displayName: '',
      passwordless: true,
      now: clock.now(),
    }));
  if (!state?.user_id || !key) return { refusal: messages.invalidWebAuthn() };
  const handle = Buffer.from(state.user_id, 'base64url');
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      const identityId = await insertIdentity(trx, clock, { traits: input.traits });
      await saveCredential(trx, clock, identityId, 'passkey', { credentials: [key], user_handle: toBase64(handle) }, [
        handle.toString('utf8'),
      ]);
      return { identityId };
    });
  } catch (error) {
    if (error instanceof IdentityConflictError) return undefined;
    throw error;
  }
}
