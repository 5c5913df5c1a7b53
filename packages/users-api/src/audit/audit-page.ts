import type { IdentityPort } from '../ports.js';
import type { AuditFilter, AuditLog, AuditRecord } from './audit-log.js';
import { AUDIT_ACTIONS, actionLabel, type NamesById, resultLabel, sentenceOf } from './audit-sentence.js';

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

/** The current names of the people some entries name, by identity id (first and last name, as the overview shows). */
export async function namesIn(identities: Pick<IdentityPort, 'get'>, entries: readonly AuditRecord[]) {
  const ids = [...new Set(entries.flatMap((entry) => [entry.actorId, entry.objectId]).filter((id) => id !== null))];
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  for (const identity of await identities.get(ids)) {
    const name = `${identity.traits.name.first} ${identity.traits.name.last}`.trim();
    if (name) names.set(identity.id, name);
  }
  return names;
}

/** An entry as 'Logboek' shows it: as stored, with its action's label, its outcome and its Dutch sentence. */
export const described = (entry: AuditRecord, names: NamesById) => ({
  ...entry,
  label: actionLabel(entry.action),
  outcome: resultLabel(entry.result),
  sentence: sentenceOf(entry, names),
});

/**
 * One page of an organisation's audit log, newest first, narrowed by `filter`, each entry described; with the token of
 * the next page ('' at the end) and the actions the log can be narrowed to.
 */
export async function auditPage(
  audit: AuditLog,
  identities: Pick<IdentityPort, 'get'>,
  organisationId: string,
  page: { size: number; before?: AuditCursor },
  filter: AuditFilter = {},
) {
  const entries = await audit.list(organisationId, { size: page.size + 1, before: page.before }, filter);
  const shown = entries.slice(0, page.size);
  const names = await namesIn(identities, shown);
  return {
    entries: shown.map((entry) => described(entry, names)),
    next_page_token: entries.length > page.size ? encodeCursor(shown[shown.length - 1]!) : '',
    actions: AUDIT_ACTIONS,
  };
}
