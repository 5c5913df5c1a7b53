import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findJsonnet } from '../../scripts/lib/jsonnet.mjs';

const TEMPLATE = fileURLToPath(new URL('../../deploy/ory/login-audit.jsonnet', import.meta.url));

/**
 * Renders deploy/ory/login-audit.jsonnet as Kratos renders a web_hook body: the context given as the top-level
 * argument `ctx` of the template's function. A template that cancels (`error 'cancel'`) rejects, with the
 * interpreter's message.
 */
export async function renderLoginAuditTemplate(ctx: unknown): Promise<Record<string, unknown>> {
  const jsonnet = findJsonnet();
  if (!jsonnet) throw new Error('jsonnet is missing: run `node scripts/ensure-test-deps.mjs` (or set JSONNET_PATH)');
  const { stdout } = await promisify(execFile)(jsonnet, ['--tla-code', `ctx=${JSON.stringify(ctx)}`, TEMPLATE]);
  return JSON.parse(stdout);
}
