import type { AuditLog } from './audit-log.js';

/** Where the next page of the audit log starts: the time and id of the last entry shown. */
export interface AuditCursor {
  at: string;
  id: string;
}

/** The page token a client sends back for the next page: the cursor as base64url JSON. */
const encodeCursor = (entry: AuditCursor) => Buffer.from(JSON.stringify(entry)).toString('base64url');

/** The cursor of a page token, or undefined for anything that is not one of ours. */
export function decodeCursor(token: string): AuditCursor | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { at?: unknown; id?: unknown };
    if (typeof parsed.at === 'string' && typeof parsed.id === 'string') return { at: parsed.at, id: parsed.id };
  } catch {
    // not ours
  }
  return undefined;
}

/** One page of an organisation's audit log, newest first, with the token of the next page ('' at the end). */
export async function auditPage(audit: AuditLog, organisationId: string, size: number, before?: AuditCursor) {
  const entries = await audit.list(organisationId, { size: size + 1, before });
  const page = entries.slice(0, size);
  return { entries: page, next_page_token: entries.length > size ? encodeCursor(page[page.length - 1]!) : '' };
}
