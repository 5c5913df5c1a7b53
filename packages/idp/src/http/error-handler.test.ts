import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingBusyError } from '../credentials/password/password-hasher.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import type { IdpContext } from '../context.js';
import { registerErrorHandling } from './error-handler.js';

const app = Fastify();

beforeAll(async () => {
  registerErrorHandling(app, { log: app.log } as IdpContext);
  app.get('/busy', async () => {
    throw new HashingBusyError();
  });
  app.get('/gone', async () => {
    throw kratosErrors.notFound('There is no such thing.');
  });
  app.get('/quick', async () => 'ok');
  await app.ready();
});

afterAll(() => app.close());

const timed = async (url: string) => {
  const start = performance.now();
  const response = await app.inject({ url });
  return { response, ms: performance.now() - start };
};

describe('error envelope', () => {
  it('answers other errors at once', async () => {
    const { response, ms } = await timed('/gone');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe(404);
    expect(ms).toBeLessThan(250);
  });

  it('holds a refusal for want of hashing capacity before sending it, without holding the event loop', async () => {
    const refusal = timed('/busy');
    const meanwhile = await timed('/quick');
    expect(meanwhile.response.body).toBe('ok');
    const { response, ms } = await refusal;
    expect(meanwhile.ms).toBeLessThan(ms);
    expect(ms).toBeGreaterThanOrEqual(495); // half a second
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.json().error).toMatchObject({ code: 503, status: 'Service Unavailable' });
  });
});
