import crypto from 'node:crypto';
import { openText, sealText } from '../credentials/credential-cipher.js';
import type { FlowsTable } from '../db/schema.js';
import { allColumns, fixedInsert, fixedStatement, runFixed } from '../db/fixed-statement.js';
import type { DbExecutor } from '../identities/identity-repository.js';
import type { Clock } from '../clock.js';
import type { IdpConfig } from '../config.js';
import { publicUrlOf } from '../http/return-to.js';
import type { UiContainer } from '../ui/nodes.js';

export type FlowKind = FlowsTable['kind'];
export type FlowType = FlowsTable['type'];

export interface Flow {
  id: string;
  kind: FlowKind;
  type: FlowType;
  state: string;
  requestUrl: string;
  returnTo: string | null;
  /** The real anti-CSRF token the flow was created with; rendered masked. */
  csrfToken: string;
  active: string | null;
  requestedAal: string | null;
  refresh: boolean;
  identityId: string | null;
  sessionId: string | null;
  ui: UiContainer;
  /** Server-side state never sent to clients (pending TOTP secret, pending lookup codes, recovered identity…). */
  internal: Record<string, unknown>;
  submitCount: number;
  expiresAt: string;
  issuedAt: string;
  createdAt: string;
  updatedAt: string;
}

/** A new flow (not stored yet) whose form posts to `/self-service/<kind>?flow=<id>`. */
export function newFlow(
  ctx: { clock: Clock; config: IdpConfig },
  lifespanMs: number,
  init: Pick<Flow, 'kind' | 'type' | 'requestUrl' | 'csrfToken'> & Partial<Flow>,
): Flow {
  const now = ctx.clock.now();
  const id = init.id ?? crypto.randomUUID();
  const action = publicUrlOf(ctx.config, `/self-service/${init.kind}`, { flow: id });
  return {
    state: 'choose_method',
    returnTo: null,
    active: null,
    requestedAal: null,
    refresh: false,
    identityId: null,
    sessionId: null,
    internal: {},
    submitCount: 0,
    ui: { action, method: 'POST', nodes: [] },
    expiresAt: new Date(now.getTime() + lifespanMs).toISOString(),
    issuedAt: now.toISOString(),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ...init,
    id,
  };
}

/**
 * The server-side state a flow row keeps: all of it but a session token handed out in `continue_with`. That token
 * reaches the client in the answer that completes the flow, never the database: a stored flow is served again
 * (`GET /self-service/<kind>/flows` asks API flows for no session) and tokens are kept only as hashes
 * (docs/security.md#20-session-tokens).
 */
function storedInternal(internal: Record<string, unknown>): Record<string, unknown> {
  const next = internal.continue_with;
  if (!Array.isArray(next)) return internal;
  return {
    ...internal,
    continue_with: next.filter((item: { action?: unknown } | null) => item?.action !== 'set_ory_session_token'),
  };
}

// A settings flow shows a new authenticator-app secret and new backup codes, and keeps them until it ends: sealed
// like the credentials they become (credentials/credential-cipher.ts).
const sealedIfSettings = (kind: string, text: string) => (kind === 'settings' ? sealText(text) : text);

const toRow = (flow: Flow): FlowsTable => ({
  id: flow.id,
  kind: flow.kind,
  type: flow.type,
  state: flow.state,
  request_url: flow.requestUrl,
  return_to: flow.returnTo,
  csrf_token: flow.csrfToken,
  active: flow.active,
  requested_aal: flow.requestedAal,
  refresh: flow.refresh ? 1 : 0,
  identity_id: flow.identityId,
  session_id: flow.sessionId,
  ui: sealedIfSettings(flow.kind, JSON.stringify(flow.ui)),
  internal_context: sealedIfSettings(flow.kind, JSON.stringify(storedInternal(flow.internal))),
  submit_count: flow.submitCount,
  expires_at: flow.expiresAt,
  issued_at: flow.issuedAt,
  created_at: flow.createdAt,
  updated_at: flow.updatedAt,
});

const fromRow = (row: FlowsTable): Flow => ({
  id: row.id,
  kind: row.kind,
  type: row.type,
  state: row.state,
  requestUrl: row.request_url,
  returnTo: row.return_to,
  csrfToken: row.csrf_token,
  active: row.active,
  requestedAal: row.requested_aal,
  refresh: row.refresh === 1,
  identityId: row.identity_id,
  sessionId: row.session_id,
  ui: JSON.parse(openText(row.ui)) as UiContainer,
  internal: JSON.parse(openText(row.internal_context)) as Record<string, unknown>,
  submitCount: row.submit_count,
  expiresAt: row.expires_at,
  issuedAt: row.issued_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

// Every sign-in writes a flow, reads it and saves it: in fixed statements
// (docs/architecture.md#fixed-statements-on-the-hot-paths).
const FLOW_COLUMNS = allColumns<FlowsTable>()([
  'id',
  'kind',
  'type',
  'state',
  'request_url',
  'return_to',
  'csrf_token',
  'active',
  'requested_aal',
  'refresh',
  'identity_id',
  'session_id',
  'ui',
  'internal_context',
  'submit_count',
  'expires_at',
  'issued_at',
  'created_at',
  'updated_at',
]);
const INSERT_FLOW = fixedInsert<FlowsTable>('portaal_insert_flow', 'selfservice_flows', FLOW_COLUMNS);
// submit_count is only ever changed by countSubmission, atomically; a save must not put an old count back.
const SAVED_COLUMNS = FLOW_COLUMNS.filter((column) => column !== 'id' && column !== 'submit_count');
const SAVE_FLOW = fixedStatement(
  'portaal_save_flow',
  `update selfservice_flows set ${SAVED_COLUMNS.map((column) => `${column} = ?`).join(', ')} where id = ?`,
);
const FIND_FLOW = fixedStatement('portaal_find_flow', 'select * from selfservice_flows where id = ? and kind = ?');

export async function insertFlow(db: DbExecutor, flow: Flow): Promise<void> {
  await runFixed(db, INSERT_FLOW.statement, INSERT_FLOW.values(toRow(flow)));
}

export async function saveFlow(db: DbExecutor, clock: Clock, flow: Flow): Promise<void> {
  flow.updatedAt = clock.now().toISOString();
  const row = toRow(flow);
  await runFixed(db, SAVE_FLOW, [...SAVED_COLUMNS.map((column) => row[column]), row.id]);
}

/**
 * Stores the flow only if no other request stored it since this one read it (its `updated_at`): what makes a
 * one-time value in the internal context, such as a WebAuthn challenge, usable once among concurrent requests
 * (docs/security.md#50-counters-and-one-time-secrets-are-atomic). False when another request was first.
 */
export async function saveFlowIfUnchanged(db: DbExecutor, clock: Clock, flow: Flow): Promise<boolean> {
  const read = flow.updatedAt;
  const now = clock.now().getTime();
  flow.updatedAt = new Date(Math.max(now, Date.parse(read) + 1)).toISOString();
  const { id, submit_count: _count, ...changes } = toRow(flow);
  const result = await db
    .updateTable('selfservice_flows')
    .set(changes)
    .where('id', '=', id)
    .where('updated_at', '=', read)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findFlow(db: DbExecutor, kind: FlowKind, id: unknown): Promise<Flow | undefined> {
  if (typeof id !== 'string' || !UUID.test(id)) return undefined;
  const [row] = await runFixed<FlowsTable>(db, FIND_FLOW, [id.toLowerCase(), kind]);
  return row ? fromRow(row) : undefined;
}

/** Atomically counts one more submission; returns the new count (code flows allow at most 5). */
export async function countSubmission(db: DbExecutor, flowId: string): Promise<number> {
  const row = await db
    .updateTable('selfservice_flows')
    .set((eb) => ({ submit_count: eb('submit_count', '+', 1) }))
    .where('id', '=', flowId)
    .returning('submit_count')
    .executeTakeFirst();
  return row?.submit_count ?? Number.MAX_SAFE_INTEGER;
}

export const isExpired = (flow: Flow, now: Date): boolean => new Date(flow.expiresAt).getTime() <= now.getTime();
