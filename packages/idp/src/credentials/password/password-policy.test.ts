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
        response.end(
          request.url === `/range/${sha1.slice(0, 5)}`
            ? `0000000000000000000000000000000000A:1\r\n${sha1.slice(5)}:42\r\n`
            : '',
        );
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
      expect(
        await createPasswordPolicy({ minLength: 8, hibpUrl: url }).validate('Zonnebloem-Kanaal-Fiets-42', [email]),
      ).toBeUndefined();
    });

    it('fails open when the service is unreachable', async () => {
      const down = createPasswordPolicy({ minLength: 8, hibpUrl: new URL('http://127.0.0.1:1/') });
      expect(await down.validate('Zonnebloem-Kanaal-Fiets-42', [email])).toBeUndefined();
    });
  });
});

describe('password policy edge cases', () => {
  const bare = createPasswordPolicy({ minLength: 8, commonPasswords: new Set() });

  it('accepts exactly the minimum length and exactly 1000 characters', async () => {
    expect(await bare.validate('Qv7#mZp2', [])).toBeUndefined();
    const long = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 94))).join('');
    expect(await bare.validate(long, [])).toBeUndefined();
  });

  it('refuses more than 1000 characters with 4000005', async () => {
    const message = await bare.validate('x'.repeat(1001), []);
    expect(message).toMatchObject({ id: 4000005, type: 'error' });
    expect(message?.text).toBe('The password can not be used because it is too long.');
  });

  it('checks length before the lists: a short common password is reported as too short', async () => {
    expect((await policy.validate('welkom', [email]))?.id).toBe(4000032);
  });

  it('gives the Kratos texts for similarity and breaches', async () => {
    expect(await policy.validate('jan.jansen@voorbeeldstad.nl', [email])).toMatchObject({
      id: 4000031,
      text: 'The password can not be used because it is too similar to the identifier.',
    });
    expect(await policy.validate('wachtwoord', [email])).toMatchObject({
      id: 4000034,
      text: 'The password has been found in data breaches and must no longer be used.',
      context: { breaches: 1 },
    });
  });

  it('checks every identifier, not only the first', async () => {
    expect((await bare.validate('pietervandijk99', ['anna@example.nl', 'pietervandijk@example.nl']))?.id).toBe(4000031);
  });

  it('does not compare against a local part shorter than four characters', async () => {
    const loose = createPasswordPolicy({ minLength: 1, commonPasswords: new Set() });
    // levenshtein('ab', 'abqzxw') is 4, so the local part alone would be "too similar".
    expect(await loose.validate('abqzxw', ['ab@example.org'])).toBeUndefined();
    expect((await loose.validate('annaqzxw', ['anna@example.org']))?.id).toBe(4000031);
  });

  it('refuses a common password case-insensitively and with decoration around it', async () => {
    for (const password of ['PASSWORD', '!!password!!', '2024password']) {
      expect((await policy.validate(password, []))?.id, password).toBe(4000034);
    }
  });

  it('only refuses the programme words alone, not inside a passphrase', async () => {
    for (const word of ['gemeente', 'datavoorzieningen', 'portaal', 'vng']) {
      expect((await bare.validate(`${word}!2024`.padEnd(8, '1'), []))?.id, word).toBe(4000034);
    }
    expect(await bare.validate('Mijn-gemeente-heeft-veel-fietsen', [])).toBeUndefined();
  });

  it('uses the given list instead of the built-in one', async () => {
    const custom = createPasswordPolicy({ minLength: 8, commonPasswords: new Set(['geheimpje-123']) });
    expect((await custom.validate('Geheimpje-123', []))?.id).toBe(4000034);
    expect(await custom.validate('password', [])).toBeUndefined();
  });
});

describe('Have I Been Pwned request', () => {
  let server: http.Server;
  let port: number;
  const seen: string[] = [];
  const password = 'Zonnebloem-Kanaal-Fiets-42';
  const sha1 = crypto.createHash('sha1').update(password).digest('hex').toUpperCase();
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      seen.push(request.url ?? '');
      if (request.url?.startsWith('/broken/')) return void response.writeHead(500).end(`${sha1.slice(5)}:9`);
      if (request.url?.startsWith('/moved/'))
        return void response.writeHead(302, { location: '/api/range/00000' }).end();
      if (request.url?.startsWith('/padded/')) return void response.end(`${sha1.slice(5)}:0\r\n`);
      response.end(`${sha1.slice(5)}:7\r\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends only the first five hex characters of the SHA-1, under the base path', async () => {
    seen.length = 0;
    const message = await createPasswordPolicy({
      minLength: 8,
      hibpUrl: new URL(`http://127.0.0.1:${port}/api`),
    }).validate(password, []);
    expect(message).toMatchObject({ id: 4000034, context: { breaches: 7 } });
    expect(seen).toEqual([`/api/range/${sha1.slice(0, 5)}`]);
  });

  it('fails open on an error status, a redirect and a zero (padding) count', async () => {
    for (const base of ['broken', 'moved', 'padded']) {
      const check = createPasswordPolicy({ minLength: 8, hibpUrl: new URL(`http://127.0.0.1:${port}/${base}/`) });
      expect(await check.validate(password, []), base).toBeUndefined();
    }
  });
});
