import { hasHiddenCharacters } from './hidden-characters.js';
import { messages, type UiText } from '../ui/messages.js';

// No control or format characters (Unicode Cc, Cf) but the zero-width joiner, which emoji need; the joiner's place is
// checked in code (hasHiddenCharacters), since a JSON-schema pattern cannot say it. The joiner stands in the pattern
// as itself, not as `\u200d`: Ory Kratos compiles patterns with Go's regexp, which has no `\u` escape and would
// refuse the schema (deploy/ory/README.md).
export const NAME_PATTERN = '^(?:[^\\p{Cc}\\p{Cf}]|\u200d)*$';

export const DEFAULT_SCHEMA_ID = 'default';

/** The `default` identity schema (docs/kratos-compatibility.md#identity-schema), served at `/schemas`. */
export const identitySchema = {
  $id: 'https://schemas.datavoorzieningen.nl/identity/default.schema.json',
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Person',
  type: 'object',
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: {
          type: 'string',
          format: 'email',
          title: 'E-Mail',
          minLength: 3,
          maxLength: 320,
          'ory.sh/kratos': {
            credentials: {
              password: { identifier: true },
              webauthn: { identifier: true },
              passkey: { display_name: true },
              totp: { account_name: true },
            },
            verification: { via: 'email' },
            recovery: { via: 'email' },
          },
        },
        name: {
          type: 'object',
          properties: {
            first: { type: 'string', title: 'First Name', maxLength: 50, pattern: NAME_PATTERN },
            last: { type: 'string', title: 'Last Name', maxLength: 50, pattern: NAME_PATTERN },
          },
          additionalProperties: false,
        },
      },
      required: ['email'],
      additionalProperties: false,
    },
  },
} as const;

export interface Traits {
  email: string;
  name?: { first?: string; last?: string };
}

export interface TraitError {
  /** Node name the message belongs to, e.g. `traits.email`; `undefined` for flow-level messages. */
  node: string | undefined;
  message: UiText;
}

// Deliberately simple: one @, no spaces or control characters, a dot in the domain, and none of the characters that
// make an address a list, a display name or a domain literal (`x@[10.0.0.5]` would let mail go to any host). The
// courier refuses the same characters again before a mail is queued (courier/enqueue-mail.ts), so every account
// made here can receive its mails.
const EMAIL = /^[^\s@\p{Cc}<>(),;:"\\[\]]+@[^\s@\p{Cc}<>(),;:"\\[\]]+\.[^\s@\p{Cc}<>(),;:"\\[\]]+$/u;

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : typeof value;

/**
 * Validates traits against the schema above and returns them normalised (e-mail trimmed), or the errors as Kratos
 * reports them: missing → 4000002, wrong type → 4000026, length → 4000003/4000017, e-mail format → 4000040.
 */
export function validateTraits(
  input: unknown,
): { traits: Traits; errors: [] } | { traits: undefined; errors: TraitError[] } {
  const errors: TraitError[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { traits: undefined, errors: [{ node: 'traits.email', message: messages.missingProperty('email') }] };
  }
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (key !== 'email' && key !== 'name') {
      errors.push({ node: undefined, message: messages.generic(`additionalProperties "${key}" not allowed`) });
    }
  }
  let email = '';
  if (raw.email === undefined || raw.email === null || raw.email === '') {
    errors.push({ node: 'traits.email', message: messages.missingProperty('email') });
  } else if (typeof raw.email !== 'string') {
    errors.push({ node: 'traits.email', message: messages.wrongType('string', typeOf(raw.email)) });
  } else {
    email = raw.email.trim();
    if ([...email].length < 3) errors.push({ node: 'traits.email', message: messages.tooShort(3, [...email].length) });
    else if ([...email].length > 320)
      errors.push({ node: 'traits.email', message: messages.tooLong(320, [...email].length) });
    else if (!EMAIL.test(email)) errors.push({ node: 'traits.email', message: messages.invalidEmail(email) });
  }
  let name: Traits['name'];
  if (raw.name !== undefined && raw.name !== null) {
    if (typeof raw.name !== 'object' || Array.isArray(raw.name)) {
      errors.push({ node: 'traits.name', message: messages.wrongType('object', typeOf(raw.name)) });
    } else {
      name = {};
      for (const [key, value] of Object.entries(raw.name as Record<string, unknown>)) {
        if (key !== 'first' && key !== 'last') {
          errors.push({ node: undefined, message: messages.generic(`additionalProperties "${key}" not allowed`) });
        } else if (value === undefined || value === null || value === '') {
        } else if (typeof value !== 'string') {
          errors.push({ node: `traits.name.${key}`, message: messages.wrongType('string', typeOf(value)) });
        } else if ([...value].length > 50) {
          errors.push({ node: `traits.name.${key}`, message: messages.tooLong(50, [...value].length) });
        } else if (hasHiddenCharacters(value)) {
          errors.push({ node: `traits.name.${key}`, message: messages.patternMismatch(NAME_PATTERN) });
        } else {
          name[key] = value;
        }
      }
    }
  }
  if (errors.length > 0) return { traits: undefined, errors };
  return { traits: name ? { email, name } : { email }, errors: [] };
}

/** Identifiers and addresses are compared in lower case, as Kratos normalises e-mail identifiers. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
