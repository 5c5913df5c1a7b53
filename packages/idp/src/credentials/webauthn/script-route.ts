import type { FastifyInstance } from 'fastify';
import { WEBAUTHN_SCRIPT_PATH, webAuthnScript, webAuthnScriptEtag } from './browser-script.js';

/**
 * `GET /.well-known/ory/webauthn.js` (docs/kratos-compatibility.md#passkeys-and-security-keys): the script the nodes'
 * triggers call. Pages load it with its `integrity`, so a cached copy must never outlive a release: browsers ask
 * again every time (`no-cache`) and get 304 while the script is unchanged.
 */
export function registerWebAuthnScriptRoute(app: FastifyInstance): void {
  app.get(WEBAUTHN_SCRIPT_PATH, async (request, reply) => {
    reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, no-cache')
      .header('ETag', webAuthnScriptEtag)
      .header('X-Content-Type-Options', 'nosniff');
    if (request.headers['if-none-match'] === webAuthnScriptEtag) return reply.code(304).send();
    return reply.send(webAuthnScript);
  });
}
