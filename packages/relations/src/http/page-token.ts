import { badRequest } from './keto-error.js';

// Opaque to clients, as Keto's are; they only carry the id of the last tuple shown.
export const encodePageToken = (lastId: string): string =>
  Buffer.from(JSON.stringify({ after: lastId }), 'utf8').toString('base64url');

export function decodePageToken(token: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof parsed.after === 'string' && /^[0-9a-f-]{36}$/.test(parsed.after)) return parsed.after;
  } catch {
    // fall through
  }
  throw badRequest('The page token is invalid, do not craft your own page tokens');
}
