import { describe, expect, it } from 'vitest';
import { invitationMail, recoveryCodeMail, recoveryLinkMail, twoFactorResetMail, verificationCodeMail } from './mail-templates.js';

describe('Dutch mail templates', () => {
  it('states that a recovery link is valid 15 minutes and carries the link', () => {
    const mail = recoveryLinkMail({ url: 'https://portaal.example/self-service/recovery?flow=1&token=abc', validMinutes: 15 });
    expect(mail.text).toContain('Deze link is 15 minuten geldig');
    expect(mail.text).toContain('https://portaal.example/self-service/recovery?flow=1&token=abc');
  });

  it('states the lifetime of an invitation in hours and greets by first name', () => {
    const mail = invitationMail({ url: 'https://portaal.example/x', validHours: 72, firstName: 'Anna', organisationLabel: 'Gemeente Voorbeeldstad' });
    expect(mail.text).toContain('Deze link is 72 uur geldig');
    expect(mail.text).toMatch(/^Hallo Anna,/);
    expect(mail.text).toContain('De beheerder van Gemeente Voorbeeldstad heeft een account voor je gemaakt');
  });

  it('puts the code and its lifetime in code mails', () => {
    expect(recoveryCodeMail({ code: '123456', validMinutes: 15 }).text).toContain('123456');
    expect(verificationCodeMail({ code: '654321', validMinutes: 15 }).text).toContain('De code is 15 minuten geldig.');
  });

  it('tells a person whose 2FA was reset to set it up again', () => {
    expect(twoFactorResetMail({}).text).toContain('stel je je authenticator-app opnieuw in');
  });
});
