import type { HttpError } from '@portaal/idp';

interface FieldMessage {
  id?: number;
  text?: string;
  node?: string;
  context?: Record<string, unknown>;
}

const FIELDS: Record<string, string> = {
  'traits.email': 'het e-mailadres',
  'traits.name.first': 'de voornaam',
  'traits.name.last': 'de achternaam',
  password: 'het wachtwoord',
};

const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

/** Dutch for the identity provider's validation messages that `portaal user create` can meet. */
function dutchOf(message: FieldMessage): string | undefined {
  const field = FIELDS[message.node ?? ''] ?? 'een veld';
  const context = message.context ?? {};
  switch (message.id) {
    case 4000002:
      return `${capitalised(field)} ontbreekt.`;
    case 4000001:
    case 4000004:
      return `${capitalised(field)} heeft niet de juiste vorm.`;
    case 4000003:
      return `${capitalised(field)} is te kort (minstens ${String(context.min_length)} tekens).`;
    case 4000017:
      return `${capitalised(field)} is te lang (hoogstens ${String(context.max_length)} tekens).`;
    case 4000031:
      return 'Het wachtwoord lijkt te veel op het e-mailadres.';
    case 4000032:
      return `Het wachtwoord moet minstens ${String(context.min_length)} tekens hebben.`;
    case 4000033:
      return `Het wachtwoord mag hoogstens ${String(context.max_length)} tekens hebben.`;
    case 4000034:
      return 'Dit wachtwoord staat in een lijst van gelekte wachtwoorden. Kies een ander wachtwoord.';
    case 4000040:
      return 'Het e-mailadres is geen geldig e-mailadres.';
    case 4000005:
      return 'Dit wachtwoord kan niet worden gebruikt. Kies een ander wachtwoord.';
    default:
      return undefined;
  }
}

/** The reason of an identity-provider error in Dutch, for the CLI's one line; its own text when there is no Dutch. */
export function dutchReasonOf(error: HttpError): string {
  if (error.code === 409) return 'Er bestaat al een account met dit e-mailadres.';
  const messages = Array.isArray(error.details?.messages) ? (error.details.messages as FieldMessage[]) : [];
  const dutch = messages.map(dutchOf);
  if (messages.length > 0 && dutch.every((text) => text !== undefined)) return dutch.join(' ');
  return error.reason ?? error.message;
}
