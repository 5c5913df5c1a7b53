import type { IdpConfig } from '../config.js';
import { maskCsrfToken } from '../http/cookies.js';
import { identityJson } from '../identities/identity-json.js';
import type { IdentityRecord } from '../identities/identity-repository.js';
import type { Flow } from './flow.js';

/**
 * A flow as Kratos serialises it, with a freshly masked CSRF token (docs/kratos-compatibility.md#flow-objects).
 */
export function flowJson(flow: Flow, config: IdpConfig, identity?: IdentityRecord): Record<string, unknown> {
  const ui = {
    ...flow.ui,
    nodes: flow.ui.nodes.map((node) =>
      node.type === 'input' && node.attributes.name === 'csrf_token'
        ? {
            ...node,
            attributes: { ...node.attributes, value: flow.type === 'api' ? '' : maskCsrfToken(flow.csrfToken) },
          }
        : node,
    ),
  };
  const body: Record<string, unknown> = {
    id: flow.id,
    type: flow.type,
    expires_at: flow.expiresAt,
    issued_at: flow.issuedAt,
    request_url: flow.requestUrl,
  };
  if (flow.returnTo) body.return_to = flow.returnTo;
  if (flow.active) body.active = flow.active;
  body.ui = ui;
  if (flow.kind === 'login') {
    body.created_at = flow.createdAt;
    body.updated_at = flow.updatedAt;
    body.refresh = flow.refresh;
    body.requested_aal = flow.requestedAal ?? 'aal1';
  }
  if (flow.kind === 'login' || flow.kind === 'registration' || flow.kind === 'settings') body.organization_id = null;
  if (flow.kind === 'settings' && identity) body.identity = identityJson(identity, { publicUrl: config.publicUrl });
  if (Array.isArray(flow.internal.continue_with)) body.continue_with = flow.internal.continue_with;
  body.state = flow.state;
  return body;
}
