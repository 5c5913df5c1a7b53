import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

describe('the web app on the public listener', () => {
  it('serves the app for its routes, with no-store and a strict Content-Security-Policy', async () => {
    for (const path of ['/', '/login', '/settings/2fa-app', '/permissies?x=1']) {
      const response = await fetch(`${portaal.publicUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(await response.text()).toContain('<html lang="nl">');
    }
  });

  it('answers unknown paths with the app and a 404, and unknown API paths with a JSON 404', async () => {
    expect((await fetch(`${portaal.publicUrl}/bestaat-niet`)).status).toBe(404);
    const api = await fetch(`${portaal.publicUrl}/api/bestaat-niet`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const page = await (await fetch(`${portaal.publicUrl}/login`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${portaal.publicUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('max-age=31536000');
  });
});
