import { describe, expect, it } from 'vitest';
import { prefersJson } from './negotiation.js';

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
