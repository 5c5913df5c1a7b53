import { describe, expect, it } from 'vitest';
import {
  invitationMail,
  organisationInvitationMail,
  recoveryCodeMail,
  recoveryLinkMail,
  securityNoticeMail,
  twoFactorResetMail,
  verificationCodeMail,
} from './mail-templates.js';

describe('Dutch mail templates', () => {
  it('states that a recovery link is valid 15 minutes and carries the link', () => {
    const mail = recoveryLinkMail({
      url: 'https://portaal.example/self-service/recovery?flow=1&token=abc',
      validMinutes: 15,
    });
    expect(mail.text).toContain('Deze link is 15 minuten geldig');
    expect(mail.text).toContain('https://portaal.example/self-service/recovery?flow=1&token=abc');
  });

  it('states the lifetime of an invitation in hours and greets by first name', () => {
    const mail = invitationMail({
      url: 'https://portaal.example/x',
      validHours: 72,
      firstName: 'Anna',
      organisationLabel: 'Gemeente Voorbeeldstad',
    });
    expect(mail.text).toContain('Deze link is 72 uur geldig');
    expect(mail.text).toMatch(/^Hallo Anna,/);
    expect(mail.text).toContain('De beheerder van Gemeente Voorbeeldstad heeft een account voor je gemaakt');
  });

  it('names the inviting organisation and says nothing changes before the person accepts', () => {
    const mail = organisationInvitationMail({
      url: 'https://portaal.example/settings#organisaties',
      validHours: 72,
      organisationLabel: 'DEGO',
      firstName: 'Anna',
    });
    expect(mail.subject).toBe('Uitnodiging van DEGO in het Datavoorzieningen Portaal');
    expect(mail.text).toMatch(/^Hallo Anna,/);
    expect(mail.text).toContain('De beheerder van DEGO nodigt je uit');
    expect(mail.text).toContain('https://portaal.example/settings#organisaties');
    expect(mail.text).toContain('Zolang je niet accepteert, verandert er niets aan je account.');
  });

  it('puts the code and its lifetime in code mails', () => {
    expect(recoveryCodeMail({ code: '123456', validMinutes: 15 }).text).toContain('123456');
    expect(verificationCodeMail({ code: '654321', validMinutes: 15 }).text).toContain('De code is 15 minuten geldig.');
  });

  it('tells a person whose 2FA was reset to set it up again', () => {
    expect(twoFactorResetMail({}).text).toContain('stel je je authenticator-app opnieuw in');
  });
});

describe('security notices', () => {
  const at = new Date('2026-11-23T08:15:00Z');

  it('says what changed and when, in Dutch time, and what to do if it was not you', () => {
    const mail = securityNoticeMail({ change: 'password', at, firstName: 'Anna' });
    expect(mail.subject).toBe('Je wachtwoord is gewijzigd');
    expect(mail.text).toMatch(/^Hallo Anna,/);
    expect(mail.text).toContain(
      'Het wachtwoord van je account is gewijzigd. ' +
        'Dit gebeurde op 23 november 2026 om 09:15 in het Datavoorzieningen Portaal.',
    );
    expect(mail.text).toContain("Stel dan direct een nieuw wachtwoord in via 'Wachtwoord vergeten'");
  });

  it('names the new address in the notice to the old one', () => {
    const mail = securityNoticeMail({ change: 'email', at, newEmail: 'anna@nieuw.nl' });
    expect(mail.subject).toBe('Het e-mailadres van je account is gewijzigd');
    expect(mail.text).toContain('gewijzigd in anna@nieuw.nl');
  });

  it('has its own subject for every change to the second factor', () => {
    const subjects = (['totp_linked', 'totp_unlinked', 'backup_codes_disabled'] as const).map(
      (change) => securityNoticeMail({ change, at }).subject,
    );
    expect(subjects).toEqual([
      'Er is een authenticator-app aan je account gekoppeld',
      'De authenticator-app is losgekoppeld van je account',
      'Je back-upcodes zijn uitgeschakeld',
    ]);
  });

  it('tells of security keys and passkeys added or removed, without the name the key was given', () => {
    const changes = ['security_key_added', 'security_key_removed', 'passkey_added', 'passkey_removed'] as const;
    expect(changes.map((change) => securityNoticeMail({ change, at }).subject)).toEqual([
      'Er is een beveiligingssleutel aan je account toegevoegd',
      'Er is een beveiligingssleutel van je account verwijderd',
      'Er is een passkey aan je account toegevoegd',
      'Er is een passkey van je account verwijderd',
    ]);
    expect(securityNoticeMail({ change: 'passkey_added', at }).text).toContain('inloggen zonder wachtwoord');
  });
});
