import { hash as bcryptHash } from '@node-rs/bcrypt';
import { describe, expect, it } from 'vitest';
import { createPasswordHasher, HashingBusyError } from './password-hasher.js';

describe('password hasher', () => {
  const hasher = createPasswordHasher({ concurrency: 2, queueLimit: 8 });

  it('hashes with argon2id at the OWASP parameters and verifies', async () => {
    const hashed = await hasher.hash('Zonnebloem-Kanaal-Fiets-42');
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify('Zonnebloem-Kanaal-Fiets-42', hashed)).toBe(true);
    expect(await hasher.verify('Zonnebloem-Kanaal-Fiets-43', hashed)).toBe(false);
    expect(hasher.needsRehash(hashed)).toBe(false);
  });

  it('verifies imported bcrypt hashes and asks to rehash them', async () => {
    const imported = await bcryptHash('Oud-Wachtwoord-Uit-Import', { cost: 10 });
    expect(await hasher.verify('Oud-Wachtwoord-Uit-Import', imported)).toBe(true);
    expect(await hasher.verify('verkeerd', imported)).toBe(false);
    expect(hasher.needsRehash(imported)).toBe(true);
  });

  it('answers false for unknown or broken hashes and for absurdly long input', async () => {
    expect(await hasher.verify('x', 'plain-text')).toBe(false);
    expect(await hasher.verify('x', '$argon2id$broken')).toBe(false);
    expect(await hasher.verify('x'.repeat(5000), await hasher.hash('kort-maar-goed-1'))).toBe(false);
  });

  it('spends the time of a real verification on unknown accounts', async () => {
    const known = await hasher.hash('Zonnebloem-Kanaal-Fiets-42');
    const time = async (work: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await work();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    await hasher.dummyVerify('opwarmen');
    const dummy = await time(() => hasher.dummyVerify('wat-dan-ook'));
    const real = await time(() => hasher.verify('wat-dan-ook', known));
    // Same algorithm and parameters: within a factor of three of each other, never an instant answer.
    expect(dummy).toBeGreaterThan(real / 3);
  });

  it('refuses work beyond concurrency plus queue with a 503 instead of queueing without end', async () => {
    const tiny = createPasswordHasher({ concurrency: 1, queueLimit: 1 });
    const results = await Promise.allSettled([tiny.hash('een-twee-drie-1'), tiny.hash('een-twee-drie-2'), tiny.hash('een-twee-drie-3')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(HashingBusyError);
    expect(refused.reason.code).toBe(503);
    expect(tiny.inFlight()).toBe(0);
  });
});
