import { describe, expect, it } from 'vitest';
import { routedPath } from './routed-path.js';

// The attack: the proxy routes `/%67eheim/a` to `location /geheim/` while a check on the raw path judges it as the
// root service, so a person allowed at the root reads /geheim/. Each case is what nginx 1.22 makes of the path
// (e2e/api/forward-auth-paths.test.ts sends them through nginx); where nginx could route it, the path must be
// the same, and anything that a proxy or a service could read in two ways is refused.

const path = (target: string) => {
  const routed = routedPath(target);
  return routed.ok ? routed.path : `refused: ${routed.refused}`;
};

describe('routedPath', () => {
  it('leaves an ordinary path as it is, without its query or fragment', () => {
    expect(path('/')).toBe('/');
    expect(path('/geheim/a')).toBe('/geheim/a');
    expect(path('/geheim/')).toBe('/geheim/');
    expect(path('/geheim/a?x=/../../&y=%2f')).toBe('/geheim/a');
    expect(path('/x/..#/geheim/')).toBe('/');
    expect(path("/a;b=1/c,d@e:f!$&'()*+=~")).toBe("/a;b=1/c,d@e:f!$&'()*+=~");
  });

  it('percent-decodes as nginx does, in any case, once only', () => {
    expect(path('/%67eheim/a')).toBe('/geheim/a');
    expect(path('/%47eheim/a')).toBe('/Geheim/a');
    expect(path('/%7egeheim/%7E')).toBe('/~geheim/~');
    expect(path('/%20geheim/')).toBe('/ geheim/');
    expect(path('/x/%252e%252e/geheim/')).toBe('/x/%2e%2e/geheim/');
    expect(path('/x/%2e%2e%3fgeheim')).toBe('/x/..?geheim');
    expect(path('/%c3%a9t%C3%A9/')).toBe('/été/');
  });

  it('merges repeated slashes before it resolves dot segments, as nginx with merge_slashes on', () => {
    expect(path('//geheim/a')).toBe('/geheim/a');
    expect(path('///geheim//a//')).toBe('/geheim/a/');
    expect(path('/a//../geheim/')).toBe('/geheim/');
    expect(path('/geheim//..//x')).toBe('/x');
  });

  it('resolves dot segments, encoded or not (RFC 3986 5.2.4)', () => {
    expect(path('/x/../geheim/a')).toBe('/geheim/a');
    expect(path('/x/%2e%2e/geheim/a')).toBe('/geheim/a');
    expect(path('/x/%2E%2e/geheim/')).toBe('/geheim/');
    expect(path('/x/.%2e/geheim/')).toBe('/geheim/');
    expect(path('/./geheim/a')).toBe('/geheim/a');
    expect(path('/%2e/geheim/a')).toBe('/geheim/a');
    expect(path('/geheim/..')).toBe('/');
    expect(path('/geheim/%2e%2e/')).toBe('/');
    expect(path('/geheim/.')).toBe('/geheim/');
    expect(path('/geheim/;/../../geheim/a')).toBe('/geheim/a');
    expect(path('/%c3%a9/../geheim/')).toBe('/geheim/');
    // Not dot segments: three dots, a trailing dot, a dot with more after it.
    expect(path('/x/.../geheim/')).toBe('/x/.../geheim/');
    expect(path('/geheim./a')).toBe('/geheim./a');
    expect(path('/geheim%2e/a')).toBe('/geheim./a');
    expect(path('/x/..a/')).toBe('/x/..a/');
  });

  it('refuses an encoded slash or backslash, and a raw backslash', () => {
    expect(path('/geheim%2fa')).toBe('refused: an encoded slash');
    expect(path('/%2Fgeheim/a')).toBe('refused: an encoded slash');
    expect(path('/x/..%2fgeheim/a')).toBe('refused: an encoded slash');
    expect(path('/x%5c..%5cgeheim/a')).toBe('refused: an encoded backslash');
    expect(path('/x/%5C/')).toBe('refused: an encoded backslash');
    expect(path('/x\\..\\geheim\\a')).toBe('refused: a backslash');
  });

  it('refuses control characters, raw or encoded, and raw bytes a browser would have encoded', () => {
    for (const target of ['/geheim%00/a', '/geheim/a%0d%0ab', '/geheim%09/a', '/a%7f', '/a%c2%85b']) {
      expect(path(target), target).toBe('refused: an encoded control character');
    }
    for (const target of ['/géheim/', '/a b', '/a\tb', '/a\u0000b', '/a\r\nX: y']) {
      expect(path(target), JSON.stringify(target)).toBe('refused: a raw space, control or non-ASCII character');
    }
  });

  it('refuses invalid percent-encoding and bytes that are not UTF-8, such as an overlong dot', () => {
    for (const target of ['/%zz/geheim/', '/geheim%/', '/geheim/%', '/a%2', '/a%%32%65']) {
      expect(path(target), target).toBe('refused: invalid percent-encoding');
    }
    for (const target of ['/x/%c0%ae%c0%ae/geheim/', '/x/%ff/../geheim/', '/%e2%80/', '/%ed%a0%80/']) {
      expect(path(target), target).toBe('refused: bytes that are not UTF-8');
    }
  });

  it('refuses a dot segment above the root, and dot segments with parameters', () => {
    for (const target of ['/../geheim/', '/..', '/%2e%2e', '/a/b/../../../geheim/', '/geheim/../..']) {
      expect(path(target), target).toBe('refused: a dot segment above the root');
    }
    for (const target of ['/geheim/..;/x', '/x/.%2e;/geheim/', '/x/.;a/']) {
      expect(path(target), target).toBe('refused: a dot segment with parameters');
    }
  });

  it('refuses what is no path: empty, relative, absolute-form or a request for the server', () => {
    for (const target of ['', 'geheim/a', 'http://x/geheim/', '*', '?/geheim/']) {
      expect(path(target), target).toBe('refused: no absolute path');
    }
  });

  it('gives its own answer back unchanged, so a proxy that sends a normalised path (Traefik) gets the same', () => {
    for (const target of ['/%67eheim/a', '/x/../geheim/a', '//geheim/a', '/geheim/..', '/x/%252e/']) {
      const once = routedPath(target);
      expect(once.ok).toBe(true);
      if (!once.ok) continue;
      const reencoded = once.path.replace(/%/g, '%25').replace(/ /g, '%20');
      expect(path(reencoded), target).toBe(once.path);
    }
  });
});
