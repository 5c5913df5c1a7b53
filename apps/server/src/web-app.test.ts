import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { APP_ROUTES, registerWebApp } from './web-app.js';

// The server answers the web app's own routes with 200 and anything else with the app's page and a 404. Its list and
// the router's (apps/web/src/App.tsx) are two lists: a screen added to one only would load as 'not found' on a reload.
describe('APP_ROUTES', () => {
  it('holds every path the web app routes, and no other', () => {
    const app = readFileSync(new URL('../../web/src/App.tsx', import.meta.url), 'utf8');
    const lazy = app.slice(app.indexOf('const LAZY_SCREENS'), app.indexOf('};', app.indexOf('const LAZY_SCREENS')));
    const routed = [
      ...[...lazy.matchAll(/^\s+'(\/[^']*)':/gm)].map((match) => match[1]),
      ...[...app.matchAll(/<Route path="(\/[^"]*)"/g)].map((match) => match[1]),
    ];
    expect(routed.length).toBeGreaterThan(10);
    expect(new Set(routed)).toEqual(new Set(APP_ROUTES));
  });
});

describe('the page of the web app', () => {
  it('is the one the build last wrote, also when it was built again while the server runs', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    const app = Fastify();
    try {
      await registerWebApp(app, dist);
      const page = async () => (await app.inject({ url: '/login' })).body;
      expect(await page()).toContain('de webapplicatie is nog niet gebouwd');
      writeFileSync(path.join(dist, 'index.html'), '<script src="/assets/index-aaaa.js"></script>');
      expect(await page()).toBe('<script src="/assets/index-aaaa.js"></script>');
      writeFileSync(path.join(dist, 'index.html'), '<script src="/assets/index-bbbbbb.js"></script>');
      expect(await page()).toBe('<script src="/assets/index-bbbbbb.js"></script>');
    } finally {
      await app.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
