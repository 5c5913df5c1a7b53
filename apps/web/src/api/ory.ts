import { Configuration, FrontendApi, ResponseError } from '@ory/client-fetch';
import { noteServerContact } from '../sessions/server-contact';

/** Identity-provider calls time out after 12 seconds. */
const IDP_TIMEOUT_MS = 12_000;

const timedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(IDP_TIMEOUT_MS) });
  noteServerContact(response.status);
  return response;
};

/** The Kratos public API, same origin, in JSON (SPA) mode: cookies included, `Accept: application/json`. */
export const frontend = new FrontendApi(
  new Configuration({
    basePath: window.location.origin,
    credentials: 'include',
    headers: { Accept: 'application/json' },
    fetchApi: timedFetch,
  }),
);

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
  if (!(error instanceof ResponseError)) return Promise.resolve({ status: 0, body: {} });
  let read = readErrors.get(error);
  if (!read) {
    read = readIdpError(error);
    readErrors.set(error, read);
  }
  return read;
}

async function readIdpError(error: ResponseError): Promise<IdpError> {
  const text = await error.response.text().catch(() => '');
  try {
    return { status: error.response.status, body: text ? JSON.parse(text) : {} };
  } catch {
    return { status: error.response.status, body: {} };
  }
}
