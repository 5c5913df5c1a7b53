import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { isJsonRequest, prefersJson } from './negotiation.js';

describe('Accept negotiation', () => {
  it.each([
    [undefined, false],
    ['*/*', false],
    ['text/html', false],
    ['application/json', true],
    ['application/json, text/plain, */*', true],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['text/html;q=0.5, application/json', true],
    ['application/json;q=0, */*', false],
    ['application/json;q=0.9, text/*', false],
  ])('%s → JSON %s', (accept, json) => {
    expect(prefersJson(accept)).toBe(json);
  });
});

describe('Accept negotiation, edge cases', () => {
  it.each([
    ['Application/JSON', true],
    ['text/html, application/json', false],
    ['application/json, text/html', true],
    ['text/html;q=0.8, application/json;q=0.9', true],
    ['application/json;q=abc', false],
    ['application/json;q=0.1', true],
    ['text/*;q=0.5, application/json;q=0.4', false],
    ['*/*;q=0.1, application/json;q=0.2', true],
    ['application/xml', false],
    ['', false],
  ])('%j → JSON %s', (accept, json) => {
    expect(prefersJson(accept)).toBe(json);
  });
});

describe('isJsonRequest', () => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

  it('is JSON when Accept prefers it or the body is exactly application/json', () => {
    expect(isJsonRequest(request({ accept: 'application/json' }))).toBe(true);
    expect(isJsonRequest(request({ accept: 'text/html', 'content-type': 'application/json' }))).toBe(true);
    expect(isJsonRequest(request({ 'content-type': 'application/json; charset=utf-8' }))).toBe(false);
    expect(isJsonRequest(request({ 'content-type': 'application/x-www-form-urlencoded' }))).toBe(false);
    expect(isJsonRequest(request({}))).toBe(false);
  });
});
