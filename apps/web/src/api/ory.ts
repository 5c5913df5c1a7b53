import type { FlowError, Session } from '@ory/client-fetch';
import { noteServerContact } from '../sessions/server-contact';

/** Identity-provider calls time out after 12 seconds. */
const IDP_TIMEOUT_MS = 12_000;

/** A non-2xx answer of the identity provider; its body is read once, by `idpErrorOf`. */
export class IdpResponseError extends Error {
  constructor(readonly response: Response) {
    super(`The identity provider answered ${response.status}`);
    this.name = 'IdpResponseError';
  }
}

type Query = Record<string, string | boolean | undefined>;

// Encoded as the Ory SDK encodes it, so that the requests are the same as with the SDK.
const queryString = (query: Query) =>
  Object.entries(query)
    .filter((entry): entry is [string, string | boolean] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');

/**
 * One call of the Kratos public API, same origin, in JSON (SPA) mode: cookies included, `Accept: application/json`.
 * The calls and their answers are the Ory SDK's (`@ory/client-fetch`, whose types these are); the SDK's client
 * itself is not used, because its class brings every call and model of the API into the sign-in screen's
 * JavaScript (docs/architecture.md#how-a-screen-reaches-the-server).
 */
export async function idpCall<T>(method: 'GET' | 'POST' | 'DELETE', path: string, query: Query = {}, body?: unknown) {
  const search = queryString(query);
  const response = await fetch(`${window.location.origin}${path}${search ? `?${search}` : ''}`, {
    method,
    credentials: 'include',
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(IDP_TIMEOUT_MS),
  });
  noteServerContact(response.status);
  if (!response.ok) throw new IdpResponseError(response);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** The calls outside the self-service flows (flows/flow-api.ts has those). */
export const frontend = {
  toSession: () => idpCall<Session>('GET', '/sessions/whoami'),
  listMySessions: () => idpCall<Session[]>('GET', '/sessions'),
  disableMyOtherSessions: () => idpCall<unknown>('DELETE', '/sessions'),
  disableMySession: (id: string) => idpCall<void>('DELETE', `/sessions/${encodeURIComponent(id)}`),
  createBrowserLogoutFlow: () => idpCall<{ logout_token: string }>('GET', '/self-service/logout/browser'),
  updateLogoutFlow: (token: string) => idpCall<void>('GET', '/self-service/logout', { token }),
  getFlowError: (id: string) => idpCall<FlowError>('GET', '/self-service/errors', { id }),
};

export interface IdpError {
  status: number;
  body: {
    error?: { id?: string; code?: number; reason?: string; message?: string };
    redirect_browser_to?: string;
    use_flow_id?: string;
    ui?: unknown;
    [key: string]: unknown;
  };
}

// A response body can be read once; several handlers look at the same failure.
const readErrors = new WeakMap<object, Promise<IdpError>>();

/** The status and body of a failed identity-provider call; network failures become status 0. */
export function idpErrorOf(error: unknown): Promise<IdpError> {
  if (!(error instanceof IdpResponseError)) return Promise.resolve({ status: 0, body: {} });
  let read = readErrors.get(error);
  if (!read) {
    read = readIdpError(error);
    readErrors.set(error, read);
  }
  return read;
}

async function readIdpError(error: IdpResponseError): Promise<IdpError> {
  const text = await error.response.text().catch(() => '');
  try {
    return { status: error.response.status, body: text ? JSON.parse(text) : {} };
  } catch {
    return { status: error.response.status, body: {} };
  }
}
