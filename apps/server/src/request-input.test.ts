import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { answerRouterRefusal, holdsNul, nestsDeeperThan } from './request-input.js';

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[[{{{{', b: 'x\\"[[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(`${'['.repeat(101)}${']'.repeat(101)}`, 100)).toBe(true);
    expect(nestsDeeperThan(`${'['.repeat(100)}${']'.repeat(100)}`, 100)).toBe(false);
  });
});

describe('holdsNul', () => {
  it('finds U+0000 in nested strings and keys, and nothing in clean input', () => {
    expect(holdsNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(holdsNul({ 'k\u0000': 1 })).toBe(true);
    expect(holdsNul('\u0000')).toBe(true);
    expect(holdsNul({ a: ['\\u0000', 1, null, true], b: 'é' })).toBe(false);
    expect(holdsNul(undefined)).toBe(false);
  });
});

describe('answerRouterRefusal', () => {
  it("answers the router's own refusals in the error envelope: a too long path part, an undecodable URL", async () => {
    const app = Fastify({ frameworkErrors: answerRouterRefusal });
    app.get('/api/users/:id', async () => ({ ok: true }));
    const long = await app.inject({ method: 'GET', url: `/api/users/${'a'.repeat(150)}` });
    expect(long.statusCode).toBe(414);
    expect(long.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(long.json()).toEqual({
      error: { code: 414, status: 'URI Too Long', reason: 'A part of the path is too long.', message: 'URI Too Long' },
    });
    const garbled = await app.inject({ method: 'GET', url: '/api/users/%E0%A4%A' });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json().error).toMatchObject({ code: 400, reason: 'The URL could not be read.' });
    expect((await app.inject({ method: 'GET', url: '/api/users/1' })).json()).toEqual({ ok: true });
    await app.close();
  });
});
