import { fileURLToPath } from 'node:url';
import { Jsonnet } from '@hanazuki/node-jsonnet';

const TEMPLATE = fileURLToPath(new URL('../../deploy/ory/login-audit.jsonnet', import.meta.url));

/**
 * Renders deploy/ory/login-audit.jsonnet as Kratos renders a web_hook body: the context given as the top-level
 * argument `ctx` of the template's function. A template that cancels (`error 'cancel'`) rejects.
 */
export async function renderLoginAuditTemplate(ctx: unknown): Promise<Record<string, unknown>> {
  return JSON.parse(await new Jsonnet().tlaCode('ctx', JSON.stringify(ctx)).evaluateFile(TEMPLATE));
}
