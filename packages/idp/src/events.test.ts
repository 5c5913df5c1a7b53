import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthEvent } from './events.js';
import { createIdentityWithPassword } from './identities/create-identity.js';
import { inProcessProvider, type InProcessProvider } from './test-provider.js';

// The audit listener is waited for before a sign-in is answered (docs/architecture.md#the-audit-log): whoever holds
// a session got it after its sign-in was written to the log. A failing listener is logged and breaks nothing.

const EMAIL = 'anne@voorbeeldstad.nl';
const PASSWORD = 'een lang wachtwoord';

let inProcess: InProcessProvider;
let app: FastifyInstance;
let written: AuthEvent['type'][];

beforeEach(async () => {
  inProcess = await inProcessProvider();
  await createIdentityWithPassword(inProcess.provider.services, { email: EMAIL, password: PASSWORD });
  app = await inProcess.listener('publicApi');
  written = [];
});

afterEach(() => inProcess.close());

/** A listener that takes its time, as an audit write to a busy database does. */
const slowListener = async (event: AuthEvent) => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  written.push(event.type);
};

async function signIn(password: string): Promise<number> {
  const flow = (await app.inject({ url: '/self-service/login/api' })).json<{ id: string }>();
  const body = { method: 'password', identifier: EMAIL, password };
  return (await app.inject({ method: 'POST', url: `/self-service/login?flow=${flow.id}`, body })).statusCode;
}

describe('sign-in events', () => {
  it('are written before the sign-in is answered', async () => {
    inProcess.provider.services.ctx.events = slowListener;
    expect(await signIn(PASSWORD)).toBe(200);
    expect(written).toEqual(['login.success']);
  });

  it('are written before a refusal is answered', async () => {
    inProcess.provider.services.ctx.events = slowListener;
    expect(await signIn('een verkeerd wachtwoord')).toBe(400);
    expect(written).toEqual(['login.failure']);
  });

  it('leave the sign-in alone when the listener fails', async () => {
    inProcess.provider.services.ctx.events = async () => {
      throw new Error('the audit log is away');
    };
    expect(await signIn(PASSWORD)).toBe(200);
  });
});
