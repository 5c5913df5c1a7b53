import type { AuditRecord } from './audit-log.js';

/**
 * What an entry says in 'Logboek', per action: its label (the filter and the CSV), the sentence when it happened and
 * the sentence when it was refused or failed. `{a}` is who acted, `{o}` whom it was about.
 */
interface Wording {
  label: string;
  done: string;
  tried: string;
  /** For a sign-in refused because the account is (now) locked. */
  locked?: string;
}

/** A sign-in step as the sign-in auditor records it (`sign_in.<method>`), with how it was made. */
const signIn = (method: string, how: string): Record<string, Wording> => ({
  [`sign_in.${method}`]: {
    label: `Inloggen ${how}`,
    done: `{o} is ingelogd ${how}`,
    tried: `Mislukte inlogpoging ${how} voor {o}`,
    locked: '{o} is vergrendeld na te veel mislukte inlogpogingen',
  },
});

/** A key added or removed in the account settings (`security_key.add`, `passkey.remove`). */
const keyChanges = (kind: string, name: string): Record<string, Wording> => ({
  [`${kind}.add`]: { label: `${name} toegevoegd`, done: `{a} heeft een ${name} toegevoegd`, tried: '' },
  [`${kind}.remove`]: { label: `${name} verwijderd`, done: `{a} heeft een ${name} verwijderd`, tried: '' },
});

const WORDINGS: Record<string, Wording> = {
  ...signIn('password', 'met het wachtwoord'),
  ...signIn('totp', 'met de authenticator-app'),
  ...signIn('lookup_secret', 'met een back-upcode'),
  ...signIn('webauthn', 'met een beveiligingssleutel'),
  ...signIn('passkey', 'met een passkey'),
  ...keyChanges('security_key', 'beveiligingssleutel'),
  ...keyChanges('passkey', 'passkey'),
  'password.add': { label: 'Wachtwoord ingesteld', done: '{a} heeft een wachtwoord ingesteld', tried: '' },
  'password.change': { label: 'Wachtwoord gewijzigd', done: '{a} heeft het wachtwoord gewijzigd', tried: '' },
  'totp.add': { label: 'Authenticator-app gekoppeld', done: '{a} heeft een authenticator-app gekoppeld', tried: '' },
  'totp.remove': {
    label: 'Authenticator-app ontkoppeld',
    done: '{a} heeft de authenticator-app ontkoppeld',
    tried: '',
  },
  'lookup_secret.add': { label: 'Back-upcodes gemaakt', done: '{a} heeft nieuwe back-upcodes gemaakt', tried: '' },
  'lookup_secret.remove': { label: 'Back-upcodes verwijderd', done: '{a} heeft de back-upcodes verwijderd', tried: '' },
  'service.sign_in': {
    label: 'Ingelogd bij een datavoorziening',
    done: '{a} is ingelogd bij een datavoorziening',
    tried: '{a} mocht niet inloggen bij een datavoorziening',
  },
  'user.list': {
    label: 'Gebruikers bekeken',
    done: '{a} heeft de gebruikers bekeken',
    tried: '{a} probeerde de gebruikers te bekijken',
  },
  'user.exists': {
    label: 'E-mailadres opgezocht',
    done: '{a} heeft een e-mailadres opgezocht',
    tried: '{a} probeerde een e-mailadres op te zoeken',
  },
  'user.create': {
    label: 'Account aangemaakt',
    done: '{a} heeft {o} toegevoegd',
    tried: '{a} probeerde {o} toe te voegen',
  },
  'user.update': {
    label: 'Gegevens gewijzigd',
    done: '{a} heeft {o} gewijzigd',
    tried: '{a} probeerde {o} te wijzigen',
  },
  'user.delete': { label: 'Verwijderd', done: '{a} heeft {o} verwijderd', tried: '{a} probeerde {o} te verwijderen' },
  'user.add_to_organisation': {
    label: 'Toegevoegd aan de organisatie',
    done: '{a} heeft {o} aan de organisatie toegevoegd',
    tried: '{a} probeerde {o} aan de organisatie toe te voegen',
  },
  'user.remove_from_organisation': {
    label: 'Uit de organisatie gehaald',
    done: '{a} heeft {o} uit de organisatie gehaald',
    tried: '{a} probeerde {o} uit de organisatie te halen',
  },
  'user.block': { label: 'Geblokkeerd', done: '{a} heeft {o} geblokkeerd', tried: '{a} probeerde {o} te blokkeren' },
  'user.unblock': {
    label: 'Gedeblokkeerd',
    done: '{a} heeft {o} gedeblokkeerd',
    tried: '{a} probeerde {o} te deblokkeren',
  },
  'user.unlock': {
    label: 'Vergrendeling opgeheven',
    done: '{a} heeft de vergrendeling van {o} opgeheven',
    tried: '{a} probeerde de vergrendeling van {o} op te heffen',
  },
  'user.reset_2fa': {
    label: 'Tweede factor gereset',
    done: '{a} heeft de tweede factor van {o} gereset',
    tried: '{a} probeerde de tweede factor van {o} te resetten',
  },
  'user.end_sessions': {
    label: 'Overal uitgelogd',
    done: '{a} heeft {o} overal uitgelogd',
    tried: '{a} probeerde {o} overal uit te loggen',
  },
  'user.password_recovery': {
    label: 'Wachtwoord herstellen',
    done: '{o} heeft een link gekregen om het wachtwoord te herstellen',
    tried: 'Een link om het wachtwoord van {o} te herstellen is niet verstuurd',
  },
  'invitation.send': {
    label: 'Uitgenodigd',
    done: '{a} heeft {o} uitgenodigd',
    tried: '{a} probeerde {o} uit te nodigen',
  },
  'invitation.resend': {
    label: 'Uitnodiging opnieuw verstuurd',
    done: '{a} heeft de uitnodiging van {o} opnieuw verstuurd',
    tried: '{a} probeerde de uitnodiging van {o} opnieuw te versturen',
  },
  'invitation.withdraw': {
    label: 'Uitnodiging ingetrokken',
    done: '{a} heeft de uitnodiging van {o} ingetrokken',
    tried: '{a} probeerde de uitnodiging van {o} in te trekken',
  },
  'invitation.accept': {
    label: 'Uitnodiging aangenomen',
    done: '{a} heeft de uitnodiging aangenomen',
    tried: '{a} probeerde de uitnodiging aan te nemen',
  },
  'invitation.decline': {
    label: 'Uitnodiging afgeslagen',
    done: '{a} heeft de uitnodiging afgeslagen',
    tried: '{a} probeerde de uitnodiging af te slaan',
  },
  'invitation.expire': {
    label: 'Uitnodiging verlopen',
    done: 'De uitnodiging van {o} is verlopen',
    tried: 'De uitnodiging van {o} is verlopen',
  },
  'organisation.switch': {
    label: 'Van organisatie gewisseld',
    done: '{a} is naar deze organisatie gewisseld',
    tried: '{a} probeerde naar deze organisatie te wisselen',
  },
  'organisation.leave': {
    label: 'Organisatie verlaten',
    done: '{a} heeft de organisatie verlaten',
    tried: '{a} probeerde de organisatie te verlaten',
  },
  'permissions.add': {
    label: 'Datarol of beheerrecht gegeven',
    done: '{a} heeft {o} een datarol of beheerrecht gegeven',
    tried: '{a} probeerde {o} een datarol of beheerrecht te geven',
  },
  // Only a refusal is recorded as this: what is set is recorded as the additions and removals it made.
  'permissions.set': {
    label: 'Datarollen en beheerrecht gezet',
    done: '{a} heeft de datarollen en het beheerrecht van {o} gezet',
    tried: '{a} probeerde de datarollen en het beheerrecht van {o} te zetten',
  },
  'permissions.remove': {
    label: 'Datarol of beheerrecht ingetrokken',
    done: '{a} heeft een datarol of beheerrecht van {o} ingetrokken',
    tried: '{a} probeerde een datarol of beheerrecht van {o} in te trekken',
  },
  'import.preview': {
    label: 'Import gecontroleerd',
    done: '{a} heeft een bestand met personen laten controleren',
    tried: '{a} probeerde een bestand met personen te laten controleren',
  },
  'import.start': {
    label: 'Import gestart',
    done: '{a} heeft een import van personen gestart',
    tried: '{a} probeerde een import van personen te starten',
  },
  'import.complete': {
    label: 'Import afgerond',
    done: 'De import van personen van {a} is afgerond',
    tried: 'De import van personen van {a} is afgerond',
  },
  'import.read': {
    label: 'Import bekeken',
    done: '{a} heeft een import van personen bekeken',
    tried: '{a} probeerde een import van personen te bekijken',
  },
  'access_review.read': {
    label: 'Toegangsreview bekeken',
    done: '{a} heeft de toegangsreview bekeken',
    tried: '{a} probeerde de toegangsreview te bekijken',
  },
  'access_review.complete': {
    label: 'Toegangsreview afgerond',
    done: '{a} heeft een toegangsreview afgerond',
    tried: '{a} probeerde een toegangsreview af te ronden',
  },
  'access_review.export': {
    label: 'Toegangsreview gedownload',
    done: '{a} heeft een toegangsreview gedownload',
    tried: '{a} probeerde een toegangsreview te downloaden',
  },
  'programme.organisation.list': {
    label: 'Organisaties bekeken',
    done: '{a} heeft de organisaties van het programma bekeken',
    tried: '{a} probeerde de organisaties van het programma te bekijken',
  },
  'programme.organisation.create': {
    label: 'Organisatie aangemaakt',
    done: '{a} heeft de organisatie aangemaakt',
    tried: '{a} probeerde een organisatie aan te maken',
  },
  'programme.organisation.update': {
    label: 'Organisatie gewijzigd',
    done: '{a} heeft de organisatie gewijzigd',
    tried: '{a} probeerde een organisatie te wijzigen',
  },
  'programme.data_role.add': {
    label: 'Datarol toegevoegd',
    done: '{a} heeft een datarol toegevoegd',
    tried: '{a} probeerde een datarol toe te voegen',
  },
  'programme.data_role.rename': {
    label: 'Datarol hernoemd',
    done: '{a} heeft een datarol hernoemd',
    tried: '{a} probeerde een datarol te hernoemen',
  },
  'programme.data_role.retire': {
    label: 'Datarol opgeheven',
    done: '{a} heeft een datarol opgeheven',
    tried: '{a} probeerde een datarol op te heffen',
  },
  'programme.service.list': {
    label: 'Datavoorzieningen bekeken',
    done: '{a} heeft de datavoorzieningen van het programma bekeken',
    tried: '{a} probeerde de datavoorzieningen van het programma te bekijken',
  },
  'programme.service.create': {
    label: 'Datavoorziening toegevoegd',
    done: '{a} heeft een datavoorziening toegevoegd',
    tried: '{a} probeerde een datavoorziening toe te voegen',
  },
  'programme.service.update': {
    label: 'Datavoorziening gewijzigd',
    done: '{a} heeft een datavoorziening gewijzigd',
    tried: '{a} probeerde een datavoorziening te wijzigen',
  },
  'programme.service.remove': {
    label: 'Datavoorziening verwijderd',
    done: '{a} heeft een datavoorziening verwijderd',
    tried: '{a} probeerde een datavoorziening te verwijderen',
  },
  'programme.service.rotate_secret': {
    label: 'Clientgeheim vernieuwd',
    done: '{a} heeft het clientgeheim van een datavoorziening vernieuwd',
    tried: '{a} probeerde het clientgeheim van een datavoorziening te vernieuwen',
  },
  'kratos.import': {
    label: 'Ory Kratos overgenomen',
    done: 'De accounts uit Ory Kratos zijn overgenomen',
    tried: 'De accounts uit Ory Kratos zijn niet overgenomen',
  },
  'catalogue.load': {
    label: 'Catalogus geladen',
    done: 'De catalogus is geladen',
    tried: 'De catalogus is niet geladen',
  },
  'programme.administrator.invite': {
    label: 'Beheerder uitgenodigd',
    done: '{a} heeft {o} als beheerder uitgenodigd',
    tried: '{a} probeerde een beheerder van een organisatie uit te nodigen',
  },
  'programme.admin.list': {
    label: 'Programmabeheerders bekeken',
    done: '{a} heeft de programmabeheerders bekeken',
    tried: '{a} probeerde de programmabeheerders te bekijken',
  },
  'programme.admin.add': {
    label: 'Programmabeheerder aangewezen',
    done: '{a} heeft {o} programmabeheerder gemaakt',
    tried: '{a} probeerde {o} programmabeheerder te maken',
  },
  'programme.admin.remove': {
    label: 'Programmabeheerder afgezet',
    done: '{a} heeft {o} als programmabeheerder afgezet',
    tried: '{a} probeerde {o} als programmabeheerder af te zetten',
  },
  'audit.read': {
    label: 'Logboek bekeken',
    done: '{a} heeft het logboek bekeken',
    tried: '{a} probeerde het logboek te bekijken',
  },
  'audit.export': {
    label: 'Logboek gedownload',
    done: '{a} heeft het logboek gedownload',
    tried: '{a} probeerde het logboek te downloaden',
  },
};

/** The actions 'Logboek' filters on, with their labels, in the order of the labels. */
export const AUDIT_ACTIONS: readonly { action: string; label: string }[] = Object.entries(WORDINGS)
  .map(([action, { label }]) => ({ action, label: label.charAt(0).toUpperCase() + label.slice(1) }))
  .sort((a, b) => a.label.localeCompare(b.label, 'nl'));

export const isAuditAction = (action: string) => Object.hasOwn(WORDINGS, action);

export const actionLabel = (action: string) => AUDIT_ACTIONS.find((known) => known.action === action)?.label ?? action;

/** Names by identity id, for the people an entry names; an entry falls back to the stored address. */
export type NamesById = ReadonlyMap<string, string>;

const someone = 'iemand';

function nameOf(names: NamesById, id: string | null, email: string | null): string {
  return (id ? names.get(id) : undefined) ?? email ?? someone;
}

/**
 * An entry in one Dutch sentence: 'Anne de Vries heeft Piet Jansen geblokkeerd', 'Mislukte inlogpoging voor
 * piet@voorbeeldstad.nl'. People are named by their current name where the portal still knows them, else by the
 * address the entry recorded.
 */
export function sentenceOf(entry: AuditRecord, names: NamesById): string {
  const wording = WORDINGS[entry.action];
  const actor = nameOf(names, entry.actorId, entry.actorEmail);
  const object = nameOf(names, entry.objectId, entry.objectEmail);
  if (!wording) return `${actor}: ${entry.action}${entry.objectId || entry.objectEmail ? ` (${object})` : ''}`;
  const text =
    entry.result === 'success'
      ? wording.done
      : entry.result === 'locked' && wording.locked
        ? wording.locked
        : wording.tried || wording.done;
  // A sentence that starts with a name starts as the name does ('van Dam heeft …').
  return text.replace('{a}', actor).replace('{o}', object);
}

const RESULTS: Record<AuditRecord['result'], string> = {
  success: 'gelukt',
  denied: 'geweigerd',
  failure: 'mislukt',
  locked: 'vergrendeld',
};

/** The outcome of an entry as 'Logboek' shows it. */
export const resultLabel = (result: AuditRecord['result']) => RESULTS[result] ?? result;
