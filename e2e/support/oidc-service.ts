import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import * as client from 'openid-client';

/**
 * A small data service that signs in through the portal, as Grafana or Superset would: node's http server with
 * openid-client as relying party (code flow with PKCE, the client secret in the Authorization header). `/` shows who
 * is signed in or starts the sign-in; `/login` is its `initiate_login_uri`; `/callback` redeems the code.
 */
export interface OidcService {
  readonly url: string;
  close(): Promise<void>;
}

export interface OidcServiceOptions {
  port: number;
  name: string;
  clientId: string;
  secret: string;
  /** The portal's issuer, asked for at the first sign-in: the portal may start after the service. */
  issuer: () => URL;
}

const cookieOf = (request: IncomingMessage, name: string) =>
  (request.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];

const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="nl"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body><main><h1>${title}</h1>${body}</main></body></html>`;

export async function startOidcService(options: OidcServiceOptions): Promise<OidcService> {
  const url = `http://127.0.0.1:${options.port}`;
  let config: client.Configuration | undefined;
  const pending = new Map<string, { verifier: string; state: string }>();
  const signedIn = new Map<string, { name: string; email: string }>();

  const configuration = async () =>
    (config ??= await client.discovery(
      options.issuer(),
      options.clientId,
      undefined,
      client.ClientSecretBasic(options.secret),
      { execute: [client.allowInsecureRequests] },
    ));

  const server: Server = createServer((request, response) => {
    void (async () => {
      const address = new URL(request.url ?? '/', url);
      if (address.pathname === '/login') {
        const verifier = client.randomPKCECodeVerifier();
        const state = client.randomState();
        const flow = randomUUID();
        pending.set(flow, { verifier, state });
        const authorization = client.buildAuthorizationUrl(await configuration(), {
          redirect_uri: `${url}/callback`,
          scope: 'openid email profile organisations',
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
        });
        response.writeHead(302, {
          location: authorization.href,
          'set-cookie': `${options.clientId}-flow=${flow}; Path=/; HttpOnly`,
        });
        response.end();
        return;
      }
      if (address.pathname === '/callback') {
        const flow = pending.get(String(cookieOf(request, `${options.clientId}-flow`)));
        if (!flow) {
          response.writeHead(400, { 'content-type': 'text/html' }).end(page('Inloggen mislukt', ''));
          return;
        }
        const tokens = await client.authorizationCodeGrant(await configuration(), address, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
        });
        const claims = tokens.claims()!;
        const session = randomUUID();
        signedIn.set(session, { name: String(claims.name), email: String(claims.email) });
        response.writeHead(302, {
          location: '/',
          'set-cookie': `${options.clientId}-sessie=${session}; Path=/; HttpOnly`,
        });
        response.end();
        return;
      }
      const person = signedIn.get(String(cookieOf(request, `${options.clientId}-sessie`)));
      if (!person) {
        response.writeHead(302, { location: '/login' }).end();
        return;
      }
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(page(options.name, `<p>Ingelogd als ${person.name} (${person.email})</p>`));
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    url,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The services' side of back-channel logout for tests: `POST /backchannel` collects the logout tokens in `tokens`;
 * every other request answers 200 with nothing, so redirects to it can be read without being followed.
 */
export async function startLogoutReceiver(): Promise<{ url: string; tokens: string[]; close(): Promise<void> }> {
  const tokens: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url === '/backchannel') tokens.push(new URLSearchParams(body).get('logout_token') ?? '');
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    tokens,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
