/** A message of the identity provider as it arrives in a flow (Kratos `UiText`). */
export interface UiText {
  id: number;
  text: string;
  type: string;
  context?: Record<string, unknown>;
}

/** Whole minutes until the moment `context[key]` names, at least 1; undefined without one. */
export const minutesUntil = (context: Record<string, unknown> | undefined, key: string) => {
  const at = typeof context?.[key] === 'string' ? Date.parse(context[key] as string) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(1, Math.round((at - Date.now()) / 60_000));
};

/** `field`: the name of the node the message is about (its own node, or the field a form-level message concerns). */
type Translate = (context: Record<string, unknown> | undefined, field: string | undefined) => string;

/** 'Beveiligingssleutel "Werk" verwijderen': a remove button with the name the person gave the key, if any. */
/** The name of a security key or passkey in a label's context; Kratos says 'unnamed' of one without (every passkey). */
export function keyNameOf(context: Record<string, unknown> | undefined): string {
  const name = typeof context?.display_name === 'string' ? context.display_name.trim() : '';
  return name === 'unnamed' ? '' : name;
}

const named = (kind: string, context: Record<string, unknown> | undefined) => {
  const name = keyNameOf(context);
  return name ? `${kind} "${name}" verwijderen` : `${kind} verwijderen`;
};

/** '1 teken', '8 tekens': a count of characters in correct Dutch. */
const characters = (count: unknown) => (String(count) === '1' ? '1 teken' : `${String(count ?? '')} tekens`);

/**
 * Dutch for every message our identity provider can send and those the spec names (Kratos message ids,
 * docs/kratos-compatibility.md). B1 level, 'je' voice, as the rest of the portal.
 */
const byId: Record<number, Translate> = {
  1010001: () => 'Inloggen',
  1010002: () => 'Inloggen met e-mail',
  1010003: () => 'Bevestig met je wachtwoord dat jij het bent.',
  1010004: () => 'Voer de verificatiecode uit je authenticator-app in.',
  1010005: () => 'Bevestigen',
  1010006: () => 'Verificatiecode',
  1010007: () => 'Back-upcode',
  1010008: () => 'Gebruik je beveiligingssleutel',
  1010009: () => 'Gebruik je authenticator-app',
  1010010: () => 'Gebruik een back-upcode',
  1010011: () => 'Gebruik je beveiligingssleutel',
  1010012: () => 'Houd je beveiligingssleutel of telefoon bij de hand en klik op verder.',
  1010013: () => 'Verder',
  1010015: () => 'Stuur een inlogcode',
  1010021: () => 'Inloggen met een passkey',
  1010022: () => 'Inloggen',
  1040001: () => 'Account maken',
  1040003: () => 'Verder',
  1040004: () => 'Account maken met een beveiligingssleutel',
  1040007: () => 'Account maken met een passkey',
  1040008: () => 'Terug',
  1040009: () => 'Kies hoe je wilt bevestigen dat jij het bent.',
  1050001: () => 'Je gegevens zijn aangepast.',
  1050002: (c) => `Koppel ${String(c?.provider ?? '')}`.trim(),
  1050003: (c) => `Ontkoppel ${String(c?.provider ?? '')}`.trim(),
  1050004: () => 'Authenticator-app ontkoppelen',
  1050005: () => 'QR-code voor je authenticator-app',
  1050006: (c) => String(c?.secret ?? ''),
  1050007: () => 'Back-upcodes tonen',
  1050008: () => 'Nieuwe back-upcodes maken',
  1050009: (c) => String(c?.secret ?? ''),
  1050010: () => 'Dit zijn je back-upcodes. Bewaar ze op een veilige plek!',
  1050011: () => 'Back-upcodes bevestigen',
  1050012: () => 'Beveiligingssleutel toevoegen',
  1050013: () => 'Naam van de beveiligingssleutel',
  // The spec's own word for a used backup code; screens mark it as English (`lang="en"`).
  1050014: () => 'Used',
  1050015: () => 'Je back-upcodes',
  // Kratos sends 1050016 ('Disable this method') only for the backup codes.
  1050016: () => 'Back-upcodes uitschakelen',
  1050017: () => 'Sleutel om handmatig in je authenticator-app in te voeren',
  1050018: (c) => named('Beveiligingssleutel', c),
  1050019: () => 'Passkey toevoegen',
  1050020: (c) => named('Passkey', c),
  1060001: (c) => {
    const minutes = minutesUntil(c, 'privileged_session_expires_at');
    return `Je account is hersteld. Kies ${minutes ? `binnen ${minutes} minuten ` : ''}een nieuw wachtwoord.`;
  },
  1060002: () =>
    'Als het e-mailadres bij een account hoort, hebben we een e-mail gestuurd met een link om je ' +
    'wachtwoord opnieuw in te stellen.',
  1060003: () => 'Als het e-mailadres bij een account hoort, hebben we een e-mail gestuurd met een herstelcode.',
  1060004: () => 'Als het e-mailadres bij een account hoort, hebben we een herstelcode gestuurd.',
  1070001: () => 'Wachtwoord',
  1070002: (c) => SCHEMA_TITLES[String(c?.name ?? '')] ?? String(c?.title ?? ''),
  1070003: () => 'Opslaan',
  1070004: () => 'E-mailadres',
  1070005: () => 'Versturen',
  1070006: () => 'Code controleren',
  1070007: () => 'E-mailadres',
  1070008: () => 'Code opnieuw sturen',
  1070009: () => 'Verder',
  1070010: () => 'Herstelcode',
  1070011: () => 'Verificatiecode',
  1070012: () => 'Registratiecode',
  1070013: () => 'Inlogcode',
  1080001: () => 'We hebben een e-mail met een bevestigingslink gestuurd.',
  1080002: () => 'Je e-mailadres is bevestigd.',
  1080003: () => 'Als het e-mailadres bij een account hoort, hebben we een e-mail gestuurd met een verificatiecode.',
  4000001: (c) =>
    typeof c?.reason === 'string' && /submitted too often/i.test(c.reason)
      ? 'Je hebt het te vaak geprobeerd. Vraag een nieuwe code aan.'
      : 'Er ging iets mis. Probeer het opnieuw.',
  4000002: (c, field) => fill(c?.property ?? field),
  4000003: (c, field) => tooShort(field, c?.min_length, c?.actual_length),
  4000004: (_, field) => badShape(field),
  4000005: () => 'Dit wachtwoord kan niet worden gebruikt. Kies een ander wachtwoord.',
  4000006: () =>
    'Het e-mailadres of wachtwoord klopt niet. Controleer ze en probeer het opnieuw. ' +
    'Na te veel mislukte pogingen is je account een tijdje geblokkeerd.',
  4000007: () => 'Er bestaat al een account met dit e-mailadres.',
  4000008: () =>
    'De verificatiecode klopt niet of is al gebruikt. Vul de code in die je authenticator-app nu laat zien.',
  4000010: () => 'Je account is nog niet geverifieerd. Verifieer eerst je e-mailadres.',
  4000011: () => 'Je hebt nog geen authenticator-app ingesteld.',
  4000012: () => 'Deze back-upcode is al gebruikt. Vul een andere back-upcode in.',
  // Kratos' 4000013 is 'You have no WebAuthn device set up' (text/id.go), not about backup codes.
  4000013: () => 'Je hebt nog geen beveiligingssleutel ingesteld.',
  4000014: () => 'Je hebt geen back-upcodes ingesteld.',
  4000015: () => 'Dit account bestaat niet of heeft geen beveiligingssleutel of passkey.',
  4000016: () => 'Deze back-upcode klopt niet. Controleer de code en vul hem opnieuw in.',
  4000017: (c, field) =>
    FIELDS[field ?? '']
      ? `${capitalised(FIELDS[field ?? '']!.noun)} is te lang. Vul maximaal ${characters(c?.max_length)} in.`
      : `Vul maximaal ${characters(c?.max_length)} in.`,
  4000026: (_, field) => badShape(field),
  4000028: () => 'Je hebt het te vaak geprobeerd. Probeer het later opnieuw.',
  4000031: () => 'Het wachtwoord lijkt te veel op je e-mailadres. Kies een ander wachtwoord.',
  4000032: (c) => `Het wachtwoord moet minimaal ${characters(c?.min_length ?? 8)} bevatten.`,
  4000033: (c) => `Het wachtwoord mag maximaal ${characters(c?.max_length)} bevatten.`,
  4000034: () =>
    'Dit wachtwoord staat in een lijst van gelekte of veelgebruikte wachtwoorden. Kies een ander wachtwoord.',
  4000035: () => 'Dit account bestaat niet of kan niet met een code inloggen.',
  4000036: () => 'De gegevens passen niet bij deze aanvraag. Begin opnieuw.',
  4000037: () => 'Dit account bestaat niet of heeft geen wachtwoord.',
  4000039: () => 'Het nieuwe wachtwoord moet anders zijn dan je huidige wachtwoord.',
  4000040: () => 'Vul een geldig e-mailadres in, zoals naam@gemeente.nl.',
  4000043: () => 'Inloggen met je beveiligingssleutel of passkey is niet gelukt. Probeer het opnieuw.',
  4010001: () => 'Het inloggen duurde te lang. Probeer het opnieuw.',
  4010002: () => 'Inloggen op deze manier is niet mogelijk.',
  4010003: () => 'Inloggen op deze manier is niet mogelijk.',
  4010004: () => 'Er ging iets mis bij het opslaan. Controleer het formulier en probeer het opnieuw.',
  4010005: () => 'Inloggen op deze manier is niet mogelijk.',
  4010006: () => 'De code is ongeldig of al gebruikt. Probeer het opnieuw.',
  4010007: () => 'Je bent al ingelogd met deze aanvraag. Begin opnieuw als je nog eens wilt inloggen.',
  4010011: () => 'Dit account is geblokkeerd. Neem contact op met de beheerder van je gemeente.',
  4040001: () => 'Het aanmaken van je account duurde te lang. Probeer het opnieuw.',
  4040002: () => 'Je account is al aangemaakt.',
  4050001: () => 'Het wijzigen duurde te lang. Probeer het opnieuw.',
  4060001: () => 'Je account is al hersteld. Vraag zo nodig een nieuwe link aan.',
  4060002: () => 'Het herstellen is mislukt. Begin opnieuw.',
  4060004: () => 'De herstellink is ongeldig of al gebruikt. Vraag een nieuwe aan.',
  4060005: () => 'Het herstellen duurde te lang. Vraag een nieuwe link of code aan.',
  4060006: () => 'De herstelcode is ongeldig of al gebruikt. Probeer het opnieuw.',
  4070001: () => 'De verificatielink is ongeldig of al gebruikt. Vraag een nieuwe aan.',
  4070002: () => 'Je e-mailadres is al bevestigd.',
  4070003: () => 'Het verifiëren is mislukt. Begin opnieuw.',
  4070005: () => 'Het verifiëren duurde te lang. Vraag een nieuwe code aan.',
  4070006: () => 'De verificatiecode is ongeldig of al gebruikt. Probeer het opnieuw.',
};

/** Labels of the identity schema's fields (message 1070002 carries the field's name). */
const SCHEMA_TITLES: Record<string, string> = {
  'traits.email': 'E-mailadres',
  'traits.name.first': 'Voornaam',
  'traits.name.last': 'Achternaam',
};

/**
 * The fields people fill in, as a message names them: 'je e-mailadres' and how to put a missing or short value right.
 * Messages name the field and say what to do (B1 Dutch, the 'je' voice), never only that the input is wrong.
 */
const FIELDS: Record<string, { noun: string; fill: string; short?: (min: number) => string }> = {
  identifier: { noun: 'je e-mailadres', fill: 'Vul je e-mailadres in.', short: () => 'Vul je hele e-mailadres in.' },
  email: { noun: 'je e-mailadres', fill: 'Vul je e-mailadres in.', short: () => 'Vul je hele e-mailadres in.' },
  'traits.email': {
    noun: 'je e-mailadres',
    fill: 'Vul je e-mailadres in.',
    short: () => 'Vul je hele e-mailadres in.',
  },
  password: { noun: 'het wachtwoord', fill: 'Vul je wachtwoord in.' },
  totp_code: {
    noun: 'de verificatiecode',
    fill: 'Vul de verificatiecode uit je authenticator-app in.',
    short: (min) => `Vul alle ${min} cijfers van de verificatiecode uit je authenticator-app in.`,
  },
  code: {
    noun: 'de code',
    fill: 'Vul de code uit de e-mail in.',
    short: (min) => `Vul de hele code van ${min} cijfers uit de e-mail in.`,
  },
  lookup_secret: {
    noun: 'de back-upcode',
    fill: 'Vul een back-upcode in.',
    short: () => 'Vul de hele back-upcode in.',
  },
  'traits.name.first': { noun: 'je voornaam', fill: 'Vul je voornaam in.' },
  'traits.name.last': { noun: 'je achternaam', fill: 'Vul je achternaam in.' },
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A field left empty: what to fill in. */
const fill = (field: unknown) => FIELDS[String(field ?? '')]?.fill ?? 'Vul dit veld in.';

/** A value shorter than allowed: empty is a field left empty; otherwise what more to fill in. */
function tooShort(field: string | undefined, min: unknown, actual: unknown): string {
  const known = FIELDS[field ?? ''];
  if (known && (Number(actual) === 0 || Number(min) <= 1)) return known.fill;
  if (known?.short) return known.short(Number(min));
  if (known) return `${capitalised(known.noun)} is te kort. Vul minimaal ${characters(min)} in.`;
  return `Vul minimaal ${characters(min)} in.`;
}

/** A value of the wrong form (a pattern or a type): which field to check. */
function badShape(field: string | undefined): string {
  if (field === 'identifier' || field === 'email' || field === 'traits.email')
    return 'Vul een geldig e-mailadres in, zoals naam@gemeente.nl.';
  const known = FIELDS[field ?? ''];
  return known
    ? `Controleer ${known.noun}: het heeft niet de goede vorm.`
    : 'Controleer wat je hebt ingevuld: het heeft niet de goede vorm.';
}

/** English text patterns (`*` matches any value) for messages that come without a known id. */
const byPattern: [string, (values: string[], field: string | undefined) => string][] = [
  ['Property * is missing.', ([p]) => fill(p)],
  [
    'The password must be at least * characters long, but got *.',
    ([min]) => `Het wachtwoord moet minimaal ${characters(min)} bevatten.`,
  ],
  ['length must be >= *, but got *', ([min, actual], field) => tooShort(field, min, actual)],
  ['Requested return_to URL * is not allowed.', () => 'Het adres om naar terug te gaan is niet toegestaan.'],
  [
    'The self-service flow expired * minutes ago, initialize a new one.',
    () => 'Dit formulier is verlopen. Probeer het opnieuw.',
  ],
  ['A valid session was detected and thus login is not possible.*', () => 'Je bent al ingelogd.'],
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const compiled = byPattern.map(
  ([pattern, render]) => [new RegExp(`^${pattern.split('*').map(escapeRegExp).join('(.*)')}$`, 's'), render] as const,
);

/**
 * Whether the portal has Dutch for the message. Without it `translate` shows the provider's own text, which is English
 * (Kratos writes no other language): screens mark that text `lang="en"` (WCAG 3.1.2).
 */
export function hasDutch(message: Pick<UiText, 'id' | 'text' | 'context'>, field?: string): boolean {
  return (
    Boolean(byId[message.id]?.(message.context, field)) || compiled.some(([pattern]) => pattern.test(message.text))
  );
}

/**
 * Dutch for a provider message: by id first, then by English text pattern, else the text unchanged. `field` names the
 * node the message belongs to, so that a missing or short value says which field to fill in.
 */
export function translate(message: Pick<UiText, 'id' | 'text' | 'context'>, field?: string): string {
  const byIdTranslation = byId[message.id];
  const translated = byIdTranslation?.(message.context, field);
  if (translated) return translated;
  for (const [pattern, render] of compiled) {
    const match = pattern.exec(message.text);
    if (match) return render(match.slice(1), field);
  }
  return message.text;
}
