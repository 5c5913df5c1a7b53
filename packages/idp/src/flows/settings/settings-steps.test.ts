import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdentityWithPassword } from '../../identities/create-identity.js';
import {
  IDENTITY_TABLES,
  inProcessProvider,
  type InProcessProvider,
  passwordSession,
  storedRows,
} from '../../test-provider.js';

// In-process tests of the settings flow's password method (in-memory SQLite, Fastify inject): a body without a usable
// password is answered as Kratos answers it, on the password node, and changes nothing.

let inProcess: InProcessProvider;
let app: FastifyInstance;
let token: string;

beforeEach(async () => {
  inProcess = await inProcessProvider();
  const { services } = inProcess.provider;
  const anne = await createIdentityWithPassword(services, {
    email: 'anne@voorbeeldstad.nl',
    password: 'een lang wachtwoord',
  });
  ({ token } = await passwordSession(inProcess, anne));
  app = await inProcess.listener('publicApi');
});

afterEach(() => inProcess.close());

/** Submits `body` to a new API settings flow and answers the status and the password node's messages. */
async function submit(body: Record<string, unknown>) {
  const headers = { 'x-session-token': token };
  const flow = (await app.inject({ url: '/self-service/settings/api', headers })).json();
  const response = await app.inject({ method: 'POST', url: `/self-service/settings?flow=${flow.id}`, headers, body });
  const answered = response.json();
  const node = answered.ui.nodes.find((n: { attributes: { name?: string } }) => n.attributes.name === 'password');
  return {
    status: response.statusCode,
    messages: node.messages.map(({ id, text }: { id: number; text: string }) => ({ id, text })),
  };
}

describe('the settings flow, password method', () => {
  it('answers a missing or empty password with 4000002 on the password node, changing nothing', async () => {
    const before = await storedRows(inProcess.db, IDENTITY_TABLES);
    for (const body of [{ method: 'password' }, { method: 'password', password: '' }]) {
      expect(await submit(body)).toEqual({
        status: 400,
        messages: [{ id: 4000002, text: 'Property password is missing.' }],
      });
    }
    expect(await storedRows(inProcess.db, IDENTITY_TABLES)).toEqual(before);
  });

  it('answers a password that is no string with 4000026, naming the type it got', async () => {
    const before = await storedRows(inProcess.db, IDENTITY_TABLES);
    expect(await submit({ method: 'password', password: 42 })).toEqual({
      status: 400,
      messages: [{ id: 4000026, text: 'expected string, but got number' }],
    });
    expect(await storedRows(inProcess.db, IDENTITY_TABLES)).toEqual(before);
  });
});
