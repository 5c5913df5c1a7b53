import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APP_ROUTES } from './web-app.js';

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
