import { describe, expect, it } from 'vitest';
import { renderLoginAuditTemplate } from '../../e2e/support/login-audit-template.js';
import {
  clientAddressFrom,
  loginHookBodySchema,
  signInEventOf,
} from '../../packages/users-api/src/routes/kratos-hook-routes.js';

/**
 * login-audit.jsonnet (Kratos' login web_hook body) and the portal's endpoint that receives it must agree: the
 * template is rendered with a real Jsonnet interpreter and its output parsed with the endpoint's own schema.
 * e2e/api/ory-login-webhook.test.ts posts it to a running portal.
 */
const identity = {
  id: '5b6f7a1c-3d2e-4f10-9a8b-7c6d5e4f3a2b',
  schema_id: 'default',
  state: 'active',
  traits: { email: 'anna@voorbeeldstad.nl', name: { first: 'Anna', last: 'Bakker' } },
  metadata_public: null,
};
const passwordStep = {
  flow: {
    id: '0f1e2d3c-4b5a-4697-8877-665544332211',
    type: 'browser',
    active: 'password',
    requested_aal: 'aal1',
    ui: { nodes: [{ attributes: { name: 'csrf_token', value: 'csrf-value-never-sent' } }] },
  },
  identity,
  session: {
    id: '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d',
    active: true,
    authenticator_assurance_level: 'aal1',
    authentication_methods: [{ method: 'password', aal: 'aal1', completed_at: '2026-11-23T09:00:00Z' }],
    devices: [{ id: 'd1', ip_address: '203.0.113.7:51234', user_agent: 'Mozilla/5.0', location: '' }],
    identity,
  },
  request_headers: { 'User-Agent': ['Mozilla/5.0'], 'True-Client-Ip': ['198.51.100.1'] },
  request_method: 'POST',
  request_url: 'https://portaal.example.nl/self-service/login?flow=0f1e2d3c-4b5a-4697-8877-665544332211',
  request_cookies: { ory_kratos_session: 'ory_st_never-sent' },
};

describe('login-audit.jsonnet and the endpoint that receives it', () => {
  it('reports the password step: who, how, at which level and from where, and no secret', async () => {
    const body = await renderLoginAuditTemplate(passwordStep);
    expect(body).toEqual({
      identity_id: identity.id,
      email: 'anna@voorbeeldstad.nl',
      flow_id: passwordStep.flow.id,
      method: 'password',
      aal: 'aal1',
      client_address: '203.0.113.7:51234',
    });
    expect(JSON.stringify(body)).not.toMatch(/never-sent|ory_st_/);
    expect(signInEventOf(loginHookBodySchema.parse(body))).toEqual({
      type: 'login.success',
      method: 'password',
      identityId: identity.id,
      identifier: 'anna@voorbeeldstad.nl',
      clientAddress: '203.0.113.7',
    });
  });

  it('reports the second factor as its own step, with the address of this request', async () => {
    const body = await renderLoginAuditTemplate({
      ...passwordStep,
      flow: { ...passwordStep.flow, active: 'totp', requested_aal: 'aal2' },
      session: {
        ...passwordStep.session,
        authenticator_assurance_level: 'aal2',
        authentication_methods: [
          ...passwordStep.session.authentication_methods,
          { method: 'totp', aal: 'aal2', completed_at: '2026-11-23T09:00:30Z' },
        ],
        devices: [...passwordStep.session.devices, { id: 'd2', ip_address: '[2001:db8::7]:443', location: '' }],
      },
    });
    expect(body).toMatchObject({ method: 'totp', aal: 'aal2', client_address: '[2001:db8::7]:443' });
    expect(signInEventOf(loginHookBodySchema.parse(body))).toMatchObject({
      method: 'totp',
      clientAddress: '2001:db8::7',
    });
  });

  it('falls back to the last authentication method and True-Client-IP, and skips a call without identity', async () => {
    const { active: _, ...flow } = passwordStep.flow;
    const body = await renderLoginAuditTemplate({
      ...passwordStep,
      flow,
      session: { ...passwordStep.session, devices: [] },
    });
    expect(body).toMatchObject({ method: 'password', client_address: '198.51.100.1' });
    expect(loginHookBodySchema.safeParse(body).success).toBe(true);
    const { identity: _identity, ...withoutIdentity } = passwordStep;
    await expect(renderLoginAuditTemplate(withoutIdentity)).rejects.toThrow(/cancel/);
  });

  it('refuses what the template never makes', () => {
    const body = { identity_id: identity.id, flow_id: passwordStep.flow.id, method: 'password' };
    expect(loginHookBodySchema.safeParse(body).success).toBe(true);
    for (const wrong of [
      { ...body, identity_id: 'anna' },
      { ...body, flow_id: undefined },
      { ...body, method: 'Password' },
      { ...body, method: 'password; drop' },
      { ...body, aal: 'aal9' },
      { ...body, email: 'a'.repeat(321) },
    ])
      expect(loginHookBodySchema.safeParse(wrong).success, JSON.stringify(wrong)).toBe(false);
  });

  it('records an IP address without its port, and nothing that is not an address', () => {
    expect(clientAddressFrom('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressFrom('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(clientAddressFrom('2001:db8::7')).toBe('2001:db8::7');
    expect(clientAddressFrom('[2001:db8::7]:443')).toBe('2001:db8::7');
    expect(clientAddressFrom(' 198.51.100.1 ')).toBe('198.51.100.1');
    for (const other of [null, undefined, '', 'unknown', 'portaal:4455', '<script>'])
      expect(clientAddressFrom(other), String(other)).toBeNull();
  });
});
