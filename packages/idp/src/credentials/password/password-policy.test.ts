import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordPolicy, loadCommonPasswords } from './password-policy.js';

const policy = createPasswordPolicy({ minLength: 8 });
const email = 'jan.jansen@voorbeeldstad.nl';

describe('password policy', () => {
  it('accepts a long, unrelated password', async () => {
    expect(await policy.validate('Zonnebloem-Kanaal-Fiets-42', [email])).toBeUndefined();
  });

  it('refuses a short password with 4000032 and its lengths', async () => {
    const message = await policy.validate('kort1', [email]);
    expect(message).toMatchObject({ id: 4000032, type: 'error', context: { min_length: 8, actual_length: 5 } });
    expect(message?.text).toBe('The password must be at least 8 characters long, but got 5.');
  });

  it('counts characters, not bytes', async () => {
    expect((await policy.validate('ééééééé', []))?.id).toBe(4000032);
    expect(await policy.validate('ëéèêëéèêëéèê-Ω-ß-Ψ', [])).toBeUndefined();
  });

  it('refuses a password too similar to the e-mail or its local part with 4000031', async () => {
    expect((await policy.validate('jan.jansen@voorbeeldstad.nl1', [email]))?.id).toBe(4000031);
    expect((await policy.validate('Jan.Jansen2024', [email]))?.id).toBe(4000031);
  });

  it('refuses a common password and the programme words, also with decoration, with 4000034', async () => {
    const common = loadCommonPasswords();
    expect(common.size).toBeGreaterThan(10_000);
    expect(common.has('password')).toBe(true);
    for (const password of ['wachtwoord123', 'Gemeente2024!', 'welkom01', 'password1234']) {
      expect((await policy.validate(password, [email]))?.id, password).toBe(4000034);
    }
  });

  describe('with a Have I Been Pwned range service', () => {
    let server: http.Server;
    let url: URL;
    const breached = 'Unieke-Maar-Gelekte-Zin-77';
    beforeAll(async () => {
      const sha1 = crypto.createHash('sha1').update(breached).digest('hex').toUpperCase();
      server = http.createServer((request, response) => {
        response.end(request.url === `/range/${sha1.slice(0, 5)}` ? `0000000000000000000000000000000000A:1\r\n${sha1.slice(5)}:42\r\n` : '');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('refuses a breached password with its count', async () => {
      const message = await createPasswordPolicy({ minLength: 8, hibpUrl: url }).validate(breached, [email]);
      expect(message).toMatchObject({ id: 4000034, context: { breaches: 42 } });
    });

    it('accepts a password the service does not know', async () => {
      expect(await createPasswordPolicy({ minLength: 8, hibpUrl: url }).validate('Zonnebloem-Kanaal-Fiets-42', [email])).toBeUndefined();
    });

    it('fails open when the service is unreachable', async () => {
      const down = createPasswordPolicy({ minLength: 8, hibpUrl: new URL('http://127.0.0.1:1/') });
      expect(await down.validate('Zonnebloem-Kanaal-Fiets-42', [email])).toBeUndefined();
    });
  });
});
