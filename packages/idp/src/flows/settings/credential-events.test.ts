import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdentityWithPassword } from '../../identities/create-identity.js';
import type { AuthEvent } from '../../events.js';
import {
  IDENTITY_TABLES,
  inProcessProvider,
  type InProcessProvider,
  passwordSession,
  storedRows,
} from '../../test-provider.js';

// In-process tests of what the settings flow tells the audit listener (docs/architecture.md#the-audit-log): every way
// to sign in that is added, removed or replaced, by kind; nothing for a change that was refused; and no change at all
// when its entry cannot be written.

let inProcess: InProcessProvider;
let app: FastifyInstance;
let headers: Record<string, string>;
let identityId: string;
const events: AuthEvent[] = [];

beforeEach(async () => {
  events.length = 0;
  inProcess = await inProcessProvider();
  const { services } = inProcess.provider;
  services.ctx.events = (event) => void events.push(event);
  const anne = await createIdentityWithPassword(services, {
    email: 'anne@voorbeeldstad.nl',
    password: 'een lang wachtwoord',
  });
  identityId = anne;
  headers = { 'x-session-token': (await passwordSession(inProcess, anne)).token };
  app = await inProcess.listener('publicApi');
});

afterEach(() => inProcess.close());

type Flow = { id: string; ui: { nodes: { attributes: { id?: string; text?: { context?: { secret?: string } } } }[] } };

const newFlow = async (): Promise<Flow> => (await app.inject({ url: '/self-service/settings/api', headers })).json();

async function submit(flow: Flow, body: Record<string, unknown>): Promise<{ status: number; flow: Flow }> {
  const response = await app.inject({ method: 'POST', url: `/self-service/settings?flow=${flow.id}`, headers, body });
  // A second factor added raises the session to aal2 under a new token.
  const renewed = response.headers['x-session-token'];
  if (typeof renewed === 'string') headers = { 'x-session-token': renewed };
  return { status: response.statusCode, flow: response.json() };
}

/** The events reported so far: the listener has run by the time the answer came (events.ts). */
function reported() {
  return events.map(({ type, method, identityId: who }) => ({ type, method, who }));
}

const secretOf = (flow: Flow) => flow.ui.nodes.find((n) => n.attributes.id === 'totp_secret_key')!.attributes.text!;

describe('the settings flow reports credential changes', () => {
  it('a new password as changed, without the password', async () => {
    expect((await submit(await newFlow(), { method: 'password', password: 'een ander lang wachtwoord' })).status).toBe(
      200,
    );
    expect(reported()).toEqual([{ type: 'credential.changed', method: 'password', who: identityId }]);
    expect(JSON.stringify(events)).not.toContain('een ander lang wachtwoord');
  });

  it('an app linked and unlinked; a wrong code reports nothing', async () => {
    const flow = await newFlow();
    const secret = secretOf(flow).context!.secret!;
    expect((await submit(flow, { method: 'totp', totp_code: '000000' })).status).toBe(400);
    expect(reported()).toEqual([]);
    const code = await generate({ secret });
    expect((await submit(flow, { method: 'totp', totp_code: code })).status).toBe(200);
    expect((await submit(await newFlow(), { method: 'totp', totp_unlink: true })).status).toBe(200);
    expect(reported()).toEqual([
      { type: 'credential.added', method: 'totp', who: identityId },
      { type: 'credential.removed', method: 'totp', who: identityId },
    ]);
  });

  it('backup codes once confirmed (not when only made) and when removed', async () => {
    const flow = await newFlow();
    expect((await submit(flow, { method: 'lookup_secret', lookup_secret_regenerate: true })).status).toBe(200);
    expect(reported()).toEqual([]);
    expect((await submit(flow, { method: 'lookup_secret', lookup_secret_confirm: true })).status).toBe(200);
    expect((await submit(await newFlow(), { method: 'lookup_secret', lookup_secret_disable: true })).status).toBe(200);
    // Nothing left to remove: no second report.
    expect((await submit(await newFlow(), { method: 'lookup_secret', lookup_secret_disable: true })).status).toBe(200);
    expect(reported()).toEqual([
      { type: 'credential.added', method: 'lookup_secret', who: identityId },
      { type: 'credential.removed', method: 'lookup_secret', who: identityId },
    ]);
  });
});

describe('a change whose audit entry cannot be written', () => {
  beforeEach(() => {
    inProcess.provider.services.ctx.events = async (event) => {
      if (event.type.startsWith('credential.')) throw new Error('the audit log refused the entry');
    };
  });

  const unchangedBy = async (change: () => Promise<{ status: number; flow: unknown }>) => {
    const before = await storedRows(inProcess.db, IDENTITY_TABLES);
    const { status, flow } = await change();
    expect(status).toBe(500);
    expect(JSON.stringify(flow)).not.toContain('refused the entry');
    expect(await storedRows(inProcess.db, IDENTITY_TABLES)).toEqual(before);
  };

  it('leaves the password as it was, and sends no change notice', async () => {
    const flow = await newFlow();
    await unchangedBy(() => submit(flow, { method: 'password', password: 'een ander lang wachtwoord' }));
  });

  it('links no app', async () => {
    const flow = await newFlow();
    const code = await generate({ secret: secretOf(flow).context!.secret! });
    await unchangedBy(() => submit(flow, { method: 'totp', totp_code: code }));
  });

  it('saves no backup codes', async () => {
    const flow = await newFlow();
    expect((await submit(flow, { method: 'lookup_secret', lookup_secret_regenerate: true })).status).toBe(200);
    await unchangedBy(() => submit(flow, { method: 'lookup_secret', lookup_secret_confirm: true }));
  });
});
