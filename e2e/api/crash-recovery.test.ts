import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { STRONG_PASSWORD, uniqueEmail } from '../support/identities.js';

// SIGKILL in the middle of a burst of admin writes: after a restart every acknowledged write is there and no
// identity is half-written (each write is one transaction).

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

interface Written {
  id: string;
  email: string;
  withPassword: boolean;
  renamed?: string;
}

async function createOne(index: number): Promise<Written | undefined> {
  const withPassword = index % 2 === 0;
  const email = uniqueEmail(withPassword ? 'pw' : 'nopw');
  const response = await fetch(`${portaal.adminUrl}/admin/identities`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      schema_id: 'default',
      traits: { email, name: { first: 'Burst', last: String(index) } },
      ...(withPassword ? { credentials: { password: { config: { password: STRONG_PASSWORD } } } } : {}),
    }),
  });
  if (response.status !== 201) return undefined;
  const body = (await response.json()) as { id: string };
  return { id: body.id, email, withPassword };
}

async function renameOne(written: Written): Promise<void> {
  const renamed = `Hernoemd ${written.id.slice(0, 8)}`;
  const response = await fetch(`${portaal.adminUrl}/admin/identities/${written.id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ op: 'replace', path: '/traits/name/first', value: renamed }]),
  });
  if (response.status === 200) written.renamed = renamed;
}

describe('crash during a burst of admin writes', () => {
  it('loses no acknowledged write and leaves no half-written identity', async () => {
    const acknowledged: Written[] = [];
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const index = next++;
        try {
          const written = await createOne(index);
          if (!written) continue;
          acknowledged.push(written);
          if (index % 3 === 0) await renameOne(written);
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 5));
    await portaal.kill();
    killed = true;
    await Promise.all(workers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);

    await portaal.restart();
    const response = await fetch(`${portaal.adminUrl}/admin/identities?page_size=500&include_credential=password`);
    const identities = (await response.json()) as {
      id: string;
      traits: { email: string; name: { first: string } };
      verifiable_addresses?: { value: string }[];
      recovery_addresses?: { value: string }[];
      credentials?: { password?: { identifiers: string[]; config?: { hashed_password?: string } } };
    }[];
    const byId = new Map(identities.map((i) => [i.id, i]));
    for (const written of acknowledged) {
      const stored = byId.get(written.id);
      expect(stored, `acknowledged identity ${written.email} is missing`).toBeDefined();
      expect(stored!.traits.email).toBe(written.email);
      if (written.renamed) expect(stored!.traits.name.first).toBe(written.renamed);
    }
    for (const identity of identities) {
      // Complete: addresses always, and the password credential for every identity created with one.
      expect(identity.verifiable_addresses?.map((a) => a.value)).toEqual([identity.traits.email]);
      expect(identity.recovery_addresses?.map((a) => a.value)).toEqual([identity.traits.email]);
      if (identity.traits.email.startsWith('pw-')) {
        expect(identity.credentials?.password?.identifiers).toEqual([identity.traits.email]);
        expect(identity.credentials?.password?.config?.hashed_password).toMatch(/^\$argon2id\$/);
      } else {
        expect(identity.credentials?.password).toBeUndefined();
      }
    }
  });
});
