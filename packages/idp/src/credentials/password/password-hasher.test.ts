import { Algorithm, hash as argon2Hash } from '@node-rs/argon2';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../errors/herodot.js';
import { createPasswordHasher, HashingBusyError, OWASP_ARGON2, weakerThanOwasp } from './password-hasher.js';

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
    // The fastest of three each: a single one may wait for a core that other tests' workers hold.
    const fastest = async (work: () => Promise<unknown>) =>
      Math.min(await time(work), await time(work), await time(work));
    const dummy = await fastest(() => hasher.dummyVerify('wat-dan-ook'));
    const real = await fastest(() => hasher.verify('wat-dan-ook', known));
    // Same algorithm and parameters: within a factor of three of each other, never an instant answer.
    expect(dummy).toBeGreaterThan(real / 3);
  });

  it('refuses work beyond concurrency plus queue with a 503 instead of queueing without end', async () => {
    const tiny = createPasswordHasher({ concurrency: 1, queueLimit: 1 });
    const results = await Promise.allSettled([
      tiny.hash('een-twee-drie-1'),
      tiny.hash('een-twee-drie-2'),
      tiny.hash('een-twee-drie-3'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(HashingBusyError);
    expect(refused.reason.code).toBe(503);
    expect(tiny.inFlight()).toBe(0);
  });
});

describe('password hasher edge cases', () => {
  const hasher = createPasswordHasher({ concurrency: 2, queueLimit: 8 });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hasher.hash('Zelfde-Wachtwoord-1'), hasher.hash('Zelfde-Wachtwoord-1')]);
    expect(a).not.toBe(b);
    expect(await hasher.verify('Zelfde-Wachtwoord-1', b)).toBe(true);
  });

  it('verifies argon2 hashes made with other parameters and asks to rehash them', async () => {
    const weaker = await argon2Hash('Oude-Parameters-9', {
      algorithm: Algorithm.Argon2id,
      memoryCost: 4096,
      timeCost: 1,
      parallelism: 1,
    });
    const argon2i = await argon2Hash('Oude-Parameters-9', {
      algorithm: Algorithm.Argon2i,
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
    });
    for (const stored of [weaker, argon2i]) {
      expect(await hasher.verify('Oude-Parameters-9', stored)).toBe(true);
      expect(hasher.needsRehash(stored)).toBe(true);
    }
    expect(hasher.needsRehash('')).toBe(true);
  });

  it('accepts 1000 characters and refuses 1001 with a 400', async () => {
    const max = 'w'.repeat(1000);
    expect(await hasher.verify(max, await hasher.hash(max))).toBe(true);
    const error = await (async () => hasher.hash('w'.repeat(1001)))().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).code).toBe(400);
  });

  it('dummyVerify resolves (to nothing) for any input, also absurdly long input', async () => {
    await expect(hasher.dummyVerify('wat-dan-ook')).resolves.toBeUndefined();
    await expect(hasher.dummyVerify('x'.repeat(5000))).resolves.toBeUndefined();
  });

  it('with concurrency 1 and no queue, refuses all but one concurrent hash with HashingBusyError', async () => {
    const tiny = createPasswordHasher({ concurrency: 1, queueLimit: 0 });
    const results = await Promise.allSettled([
      tiny.hash('een-twee-drie-1'),
      tiny.hash('een-twee-drie-2'),
      tiny.hash('een-twee-drie-3'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    for (const r of results.slice(1) as PromiseRejectedResult[]) {
      expect(r.reason).toBeInstanceOf(HashingBusyError);
      expect(r.reason.retryAfterSeconds).toBe(2);
      expect(r.reason.toEnvelope()).toMatchObject({ error: { code: 503, status: 'Service Unavailable' } });
    }
    expect(tiny.inFlight()).toBe(0);
    // The slot is free again afterwards.
    await expect(tiny.hash('een-twee-drie-4')).resolves.toMatch(/^\$argon2id\$/);
  });

  it('says it is saturated exactly while every slot is busy and the queue is full', async () => {
    const tiny = createPasswordHasher({ concurrency: 1, queueLimit: 1 });
    expect(tiny.saturated()).toBe(false);
    const first = tiny.hash('een-twee-drie-1');
    expect(tiny.saturated()).toBe(false);
    const queued = tiny.hash('een-twee-drie-2');
    expect(tiny.saturated()).toBe(true);
    await Promise.all([first, queued]);
    expect(tiny.saturated()).toBe(false);
  });

  it('says it is crowded from half the queue on, before it is saturated', async () => {
    const hasher = createPasswordHasher({ concurrency: 1, queueLimit: 4 });
    const work = [hasher.hash('een-twee-drie-1'), hasher.hash('een-twee-drie-2')];
    expect([hasher.crowded(), hasher.saturated()]).toEqual([false, false]);
    work.push(hasher.hash('een-twee-drie-3'));
    expect([hasher.crowded(), hasher.saturated()]).toEqual([true, false]);
    work.push(hasher.hash('een-twee-drie-4'), hasher.hash('een-twee-drie-5'));
    expect([hasher.crowded(), hasher.saturated()]).toEqual([true, true]);
    await Promise.all(work);
    expect(hasher.crowded()).toBe(false);
  });

  it('reports busy from verify and dummyVerify instead of answering false', async () => {
    const tiny = createPasswordHasher({ concurrency: 1, queueLimit: 0 });
    const stored = await tiny.hash('een-twee-drie-1');
    await tiny.dummyVerify('opwarmen'); // makes the dummy hash, which is not itself bounded
    const running = tiny.hash('bezet-houden-1');
    expect(tiny.inFlight()).toBe(1);
    await expect(tiny.verify('een-twee-drie-1', stored)).rejects.toBeInstanceOf(HashingBusyError);
    await expect(tiny.dummyVerify('een-twee-drie-1')).rejects.toBeInstanceOf(HashingBusyError);
    await running;
    expect(await tiny.verify('een-twee-drie-1', stored)).toBe(true);
  });

  it('queues up to the limit and runs the queued work in turn', async () => {
    const tiny = createPasswordHasher({ concurrency: 1, queueLimit: 2 });
    const work = [tiny.hash('a-b-c-d-1'), tiny.hash('a-b-c-d-2'), tiny.hash('a-b-c-d-3')];
    expect(tiny.inFlight()).toBe(1);
    const hashes = await Promise.all(work);
    expect(await tiny.verify('a-b-c-d-3', hashes[2]!)).toBe(true);
    expect(tiny.inFlight()).toBe(0);
  });
});

describe('password hasher at a configured cost (HASHERS_ARGON2_*)', () => {
  const light = { memoryKib: 64, iterations: 1, parallelism: 1 };

  it('hashes at that cost and asks to rehash what another cost made, also OWASP hashes', async () => {
    const hasher = createPasswordHasher({ concurrency: 2, queueLimit: 8, argon2: light });
    const owasp = await createPasswordHasher({ concurrency: 1, queueLimit: 1 }).hash('Lichte-Kosten-7');
    const hashed = await hasher.hash('Lichte-Kosten-7');
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    expect(hasher.needsRehash(hashed)).toBe(false);
    expect(await hasher.verify('Lichte-Kosten-7', owasp)).toBe(true);
    expect(hasher.needsRehash(owasp)).toBe(true);
    await expect(hasher.dummyVerify('wat-dan-ook')).resolves.toBeUndefined();
  });

  it("tells apart costs below every one of OWASP's choices", () => {
    expect(weakerThanOwasp(OWASP_ARGON2)).toBe(false);
    expect(weakerThanOwasp({ memoryKib: 47104, iterations: 1, parallelism: 1 })).toBe(false);
    expect(weakerThanOwasp({ memoryKib: 7168, iterations: 5, parallelism: 1 })).toBe(false);
    expect(weakerThanOwasp({ memoryKib: 65536, iterations: 3, parallelism: 4 })).toBe(false);
    expect(weakerThanOwasp({ memoryKib: 19455, iterations: 2, parallelism: 1 })).toBe(true);
    expect(weakerThanOwasp({ memoryKib: 19456, iterations: 1, parallelism: 1 })).toBe(true);
    expect(weakerThanOwasp(light)).toBe(true);
  });
});
