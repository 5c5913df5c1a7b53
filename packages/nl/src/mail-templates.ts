/** Dutch mail texts (B1 level, 'je' voice). Each returns the subject and the plain-text body. */
export interface MailText {
  subject: string;
  text: string;
}

const SIGNATURE = '\n\nMet vriendelijke groet,\nDatavoorzieningen Portaal';
const NOT_YOU = 'Heb je hier niet om gevraagd? Dan hoef je niets te doen. Je wachtwoord blijft hetzelfde.';

export function recoveryCodeMail(input: { code: string; validMinutes: number }): MailText {
  return {
    subject: 'Je herstelcode voor het Datavoorzieningen Portaal',
    text: `Hallo,

Je hebt gevraagd om je wachtwoord opnieuw in te stellen. Gebruik deze code:

${input.code}

De code is ${input.validMinutes} minuten geldig.

${NOT_YOU}${SIGNATURE}`,
  };
}

export function recoveryLinkMail(input: { url: string; validMinutes: number }): MailText {
  return {
    subject: 'Stel een nieuw wachtwoord in voor het Datavoorzieningen Portaal',
    text: `Hallo,

Je hebt gevraagd om je wachtwoord opnieuw in te stellen. Klik op de link hieronder om een nieuw wachtwoord te kiezen:

${input.url}

Deze link is ${input.validMinutes} minuten geldig en werkt één keer. \
Is de link verlopen? Vraag dan een nieuwe aan via 'Wachtwoord vergeten'.

${NOT_YOU}${SIGNATURE}`,
  };
}

export function verificationCodeMail(input: { code: string; validMinutes: number }): MailText {
  return {
    subject: 'Bevestig je e-mailadres voor het Datavoorzieningen Portaal',
    text: `Hallo,

Bevestig je e-mailadres met deze code:

${input.code}

De code is ${input.validMinutes} minuten geldig.

Heb je geen account aangemaakt? Dan kun je deze e-mail negeren.${SIGNATURE}`,
  };
}

export function invitationMail(input: {
  url: string;
  validHours: number;
  organisationLabel?: string;
  firstName?: string;
}): MailText {
  const greeting = input.firstName ? `Hallo ${input.firstName},` : 'Hallo,';
  const by = input.organisationLabel ? `de beheerder van ${input.organisationLabel}` : 'de beheerder van je gemeente';
  return {
    subject: 'Je account voor het Datavoorzieningen Portaal',
    text: `${greeting}

Welkom! ${by[0]!.toUpperCase()}${by.slice(1)} heeft een account voor je gemaakt in het Datavoorzieningen Portaal.

Klik op de link hieronder om je wachtwoord te kiezen en tweestapsverificatie in te stellen met een authenticator-app:

${input.url}

Deze link is ${input.validHours} uur geldig en werkt één keer. \
Is de link verlopen? Vraag dan een nieuwe aan via 'Wachtwoord vergeten' of neem contact op met ${by}.

Verwacht je deze e-mail niet? Neem dan contact op met ${by}.${SIGNATURE}`,
  };
}

/** An existing account is asked to join another organisation; nothing changes until the person accepts. */
export function organisationInvitationMail(input: {
  url: string;
  validHours: number;
  organisationLabel: string;
  firstName?: string;
}): MailText {
  const greeting = input.firstName ? `Hallo ${input.firstName},` : 'Hallo,';
  return {
    subject: `Uitnodiging van ${input.organisationLabel} in het Datavoorzieningen Portaal`,
    text: `${greeting}

De beheerder van ${input.organisationLabel} nodigt je uit om ook voor ${input.organisationLabel} te werken \
in het Datavoorzieningen Portaal. Je gebruikt daarvoor je bestaande account.

Log in en kies bij 'Account instellingen' of je de uitnodiging accepteert of weigert:

${input.url}

De uitnodiging is ${input.validHours} uur geldig. Zolang je niet accepteert, verandert er niets aan je account.

Verwacht je deze e-mail niet? Weiger de uitnodiging dan, \
of neem contact op met de beheerder van je eigen organisatie.${SIGNATURE}`,
  };
}

export function twoFactorResetMail(input: { firstName?: string }): MailText {
  const greeting = input.firstName ? `Hallo ${input.firstName},` : 'Hallo,';
  return {
    subject: 'Je tweestapsverificatie is gereset',
    text: `${greeting}

De beheerder van je gemeente heeft de tweestapsverificatie van je account gereset. \
De volgende keer dat je inlogt, stel je je authenticator-app opnieuw in.

Heb je hier niet om gevraagd? Neem dan direct contact op met de beheerder van je gemeente.${SIGNATURE}`,
  };
}

/** The account changes a person is told about by mail, so that a change they did not make does not go unnoticed. */
export type AccountChange =
  | 'password'
  | 'email'
  | 'totp_linked'
  | 'totp_unlinked'
  | 'backup_codes_disabled'
  | 'security_key_added'
  | 'security_key_removed'
  | 'passkey_added'
  | 'passkey_removed';

const SUBJECTS: Record<AccountChange, string> = {
  password: 'Je wachtwoord is gewijzigd',
  email: 'Het e-mailadres van je account is gewijzigd',
  totp_linked: 'Er is een authenticator-app aan je account gekoppeld',
  totp_unlinked: 'De authenticator-app is losgekoppeld van je account',
  backup_codes_disabled: 'Je back-upcodes zijn uitgeschakeld',
  security_key_added: 'Er is een beveiligingssleutel aan je account toegevoegd',
  security_key_removed: 'Er is een beveiligingssleutel van je account verwijderd',
  passkey_added: 'Er is een passkey aan je account toegevoegd',
  passkey_removed: 'Er is een passkey van je account verwijderd',
};

const WHEN = new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Amsterdam' });

function whatHappened(change: AccountChange, newEmail: string | undefined): string {
  switch (change) {
    case 'password':
      return 'Het wachtwoord van je account is gewijzigd.';
    case 'email':
      return (
        `Het e-mailadres van je account is gewijzigd in ${newEmail ?? 'een ander adres'}. ` +
        'Je logt voortaan in met dat adres. Deze e-mail gaat naar je oude adres.'
      );
    case 'totp_linked':
      return 'Er is een authenticator-app gekoppeld aan je account. Met de codes uit die app kun je inloggen.';
    case 'totp_unlinked':
      return 'De authenticator-app is losgekoppeld van je account. De codes uit die app werken niet meer.';
    case 'backup_codes_disabled':
      return 'De back-upcodes van je account zijn uitgeschakeld. Ze werken niet meer.';
    case 'security_key_added':
      return 'Er is een beveiligingssleutel toegevoegd aan je account. Met die sleutel kun je inloggen.';
    case 'security_key_removed':
      return 'Er is een beveiligingssleutel verwijderd van je account. Die sleutel werkt niet meer.';
    case 'passkey_added':
      return 'Er is een passkey toegevoegd aan je account. Met die passkey kun je inloggen zonder wachtwoord.';
    case 'passkey_removed':
      return 'Er is een passkey verwijderd van je account. Die passkey werkt niet meer.';
  }
}

/** A notice after a change to the sign-in details of an account (ASVS 6.3.7). */
export function securityNoticeMail(input: {
  change: AccountChange;
  at: Date;
  firstName?: string;
  newEmail?: string;
}): MailText {
  const greeting = input.firstName ? `Hallo ${input.firstName},` : 'Hallo,';
  return {
    subject: SUBJECTS[input.change],
    text: `${greeting}

${whatHappened(input.change, input.newEmail)} Dit gebeurde op ${WHEN.format(input.at)} in het Datavoorzieningen Portaal.

Heb je dit zelf gedaan? Dan hoef je niets te doen.

Heb je dit niet zelf gedaan? Stel dan direct een nieuw wachtwoord in via 'Wachtwoord vergeten' op de inlogpagina \
en neem contact op met de beheerder van je gemeente.${SIGNATURE}`,
  };
}
