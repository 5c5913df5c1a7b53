/**
 * The path a reverse proxy routes a request on, read from the raw request target it forwards (`X-Forwarded-Uri`:
 * nginx's `$request_uri`, Traefik's request URI), so that forward authentication judges the very service the proxy
 * will pass the request to (docs/security.md#51-forward-authentication). nginx matches its locations against `$uri`:
 * the path percent-decoded, repeated slashes merged (`merge_slashes on`, its default) and dot segments resolved, also
 * when they are encoded (`%2e`). This does the same, in the same order, and refuses what a proxy or a service behind
 * it may read in more than one way rather than guess:
 *
 * - an encoded `/` (`%2f`) or `\` (`%5c`), or a raw backslash: nginx decodes `%2f` into a separator, a Windows server
 *   reads `\` as one, many others read both as part of a name;
 * - an encoded NUL or other control character (C0 and C1); a raw space, control or non-ASCII byte (browsers encode
 *   those);
 * - invalid percent-encoding, and decoded bytes that are not UTF-8 (such as the overlong `%c0%ae` for `.`);
 * - a dot segment above the root (nginx answers 400), and `..;`/`.;` (Tomcat reads `..;/` as `../`).
 *
 * The answer compares as nginx compares: exact, case-sensitive, each character as decoded.
 */
export type RoutedPath = { ok: true; path: string } | { ok: false; refused: string };

const refuse = (refused: string): RoutedPath => ({ ok: false, refused });

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One segment percent-decoded, or why not. */
function decodeSegment(segment: string): { ok: true; text: string } | { ok: false; refused: string } {
  if (/%(?![0-9A-Fa-f]{2})/.test(segment)) return { ok: false, refused: 'invalid percent-encoding' };
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i += 1) {
    if (segment[i] !== '%') {
      bytes.push(segment.charCodeAt(i));
      continue;
    }
    const byte = Number.parseInt(segment.slice(i + 1, i + 3), 16);
    i += 2;
    if (byte === 0x2f) return { ok: false, refused: 'an encoded slash' };
    if (byte === 0x5c) return { ok: false, refused: 'an encoded backslash' };
    if (byte < 0x20 || byte === 0x7f) return { ok: false, refused: 'an encoded control character' };
    bytes.push(byte);
  }
  let text: string;
  try {
    text = utf8.decode(Uint8Array.from(bytes));
  } catch {
    return { ok: false, refused: 'bytes that are not UTF-8' };
  }
  // C1 controls (U+0080–U+009F, such as NEL) are control characters as well, only encoded in two bytes.
  if (/[\u0080-\u009f]/.test(text)) return { ok: false, refused: 'an encoded control character' };
  return { ok: true, text };
}

/** The routed path of a request target (`/path?query`), or why it is refused. */
export function routedPath(target: string): RoutedPath {
  // The query (and a fragment, which nginx also ends the path at) are no part of the path.
  const raw = target.split(/[?#]/, 1)[0]!;
  if (!raw.startsWith('/')) return refuse('no absolute path');
  if (raw.includes('\\')) return refuse('a backslash');
  if (/[^\x21-\x7e]/.test(raw)) return refuse('a raw space, control or non-ASCII character');
  // nginx merges slashes before it resolves dot segments: `/a//../b` is `/b` there (RFC 3986 alone gives `/a/b`).
  // Done on the raw path, which is safe because an encoded slash is refused.
  const segments = raw
    .replace(/\/{2,}/g, '/')
    .slice(1)
    .split('/');
  const output: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const decoded = decodeSegment(segment);
    if (!decoded.ok) return decoded;
    const { text } = decoded;
    const last = index === segments.length - 1;
    // RFC 3986 5.2.4, on the decoded segment, so `%2e%2e` is `..` as it is for nginx.
    if (text === '.' || text === '..') {
      if (text === '..' && output.pop() === undefined) return refuse('a dot segment above the root');
      if (last) output.push('');
      continue;
    }
    if (/^\.\.?;/.test(text)) return refuse('a dot segment with parameters');
    output.push(text);
  }
  return { ok: true, path: `/${output.join('/')}` };
}
