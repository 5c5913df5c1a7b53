import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startPortaal, type Portaal } from '../support/portaal.js';

function rawGet(url: string, acceptEncoding: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

describe('the web app on the public listener', () => {
  it('serves the app for its routes, with no-store and a strict Content-Security-Policy', async () => {
    for (const path of [
      '/',
      '/login',
      '/settings/2fa-app',
      '/permissies?x=1',
      '/logboek?persoon=piet%40voorbeeldstad.nl',
    ]) {
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

  it('serves the administrator sign-in on any path containing admin, with a 200', async () => {
    for (const path of ['/beheer/admin', '/admin', '/gemeente-admin?return_to=x']) {
      const response = await fetch(`${portaal.publicUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('<html lang="nl">');
    }
  });

  it('serves its icon where the page names it and where browsers look by themselves', async () => {
    expect(await (await fetch(`${portaal.publicUrl}/login`)).text()).toContain('href="/favicon.svg"');
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const icon = await fetch(`${portaal.publicUrl}${path}`);
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get('content-type')).toContain('image/svg+xml');
      expect(await icon.text()).toMatch(/^<svg /);
    }
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const page = await (await fetch(`${portaal.publicUrl}/login`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${portaal.publicUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('max-age=31536000');
  });

  it('sends the brotli or gzip copy made at build time to a browser accepting it, else the file itself', async () => {
    const page = await (await fetch(`${portaal.publicUrl}/login`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)![1];
    // node:http, not fetch, which would decode the body and hide the encoding it arrived in.
    const plain = await rawGet(`${portaal.publicUrl}${script}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accepted, encoding, decode] of [
      ['br, gzip', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const answer = await rawGet(`${portaal.publicUrl}${script}`, accepted);
      expect(answer.headers['content-encoding'], accepted).toBe(encoding);
      expect(answer.headers.vary, accepted).toContain('Accept-Encoding');
      expect(answer.body.length).toBeLessThan(plain.body.length / 2);
      expect(decode(answer.body).equals(plain.body), accepted).toBe(true);
    }
  });
});
