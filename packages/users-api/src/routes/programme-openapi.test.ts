import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';
import { requestSchemaCompiler } from '../http/request-schema.js';
import { registerProgrammeRoutes } from './programme-routes.js';

// The OpenAPI description of 'Programmabeheer' (packages/users-api/openapi/programme.yaml) and the routes the server
// registers stay one list: a route added or removed on either side fails here.

const document = parse(readFileSync(new URL('../../openapi/programme.yaml', import.meta.url), 'utf8')) as {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
};

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

let api: InProcessApi;
beforeEach(async () => {
  api = await inProcessUsersApi();
});
afterEach(() => api.close());

/** Every `$ref` in the document, each pointing into it. */
const refsOf = (node: unknown): string[] =>
  node && typeof node === 'object'
    ? Object.entries(node).flatMap(([key, value]) => (key === '$ref' ? [String(value)] : refsOf(value)))
    : [];

describe('the OpenAPI description of Programmabeheer', () => {
  it('documents exactly the routes the server registers', async () => {
    const app = Fastify();
    app.setValidatorCompiler(requestSchemaCompiler);
    const registered: string[] = [];
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') registered.push(`${method} ${route.url}`);
    });
    registerProgrammeRoutes(app, api.ctx);
    await app.ready();
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(document.openapi).toBe('3.1.0');
    expect(documented.sort()).toEqual(registered.sort());
    await app.close();
  });

  it('has every reference point at something it defines', () => {
    for (const ref of refsOf(document)) {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
      expect(target, ref).toBeDefined();
    }
  });
});
