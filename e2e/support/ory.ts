import { Configuration as FetchConfiguration, FrontendApi, ResponseError } from '@ory/client-fetch';
import { Configuration as AxiosConfiguration, IdentityApi } from '@ory/client';
import fetchCookie from 'fetch-cookie';
import { CookieJar } from 'tough-cookie';

/** One person's browser: a cookie jar, a fetch that uses it, and the official FrontendApi client over it. */
/** What a browser sends when it navigates: Kratos answers with redirects and HTML pages. */
export const HTML = { accept: 'text/html,application/xhtml+xml' };
/** What a single-page app sends: Kratos answers JSON. */
export const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };

export interface Browser {
  jar: CookieJar;
  fetch: typeof fetch;
  frontend: FrontendApi;
}

export function newBrowser(publicUrl: string): Browser {
  const jar = new CookieJar();
  const cookieFetch = fetchCookie(fetch, jar) as unknown as typeof fetch;
  // As in Ory Elements: an SPA asks for JSON explicitly; fetch's default `Accept: */*` counts as a browser (303s).
  const frontend = new FrontendApi(
    new FetchConfiguration({
      basePath: publicUrl,
      fetchApi: cookieFetch,
      credentials: 'include',
      headers: { Accept: 'application/json' },
    }),
  );
  return { jar, fetch: cookieFetch, frontend };
}

/** A native (API-mode) client: no cookies, the session token travels in X-Session-Token. */
export function newNativeClient(publicUrl: string): FrontendApi {
  return new FrontendApi(new FetchConfiguration({ basePath: publicUrl, headers: { Accept: 'application/json' } }));
}

export function identityApi(adminUrl: string): IdentityApi {
  return new IdentityApi(new AxiosConfiguration({ basePath: adminUrl }));
}

export interface FailedCall {
  status: number;
  body: any;
}

/** Runs a client call that must fail and returns its status and parsed body. */
export async function failure(call: Promise<unknown>): Promise<FailedCall> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ResponseError) {
      const text = await error.response.text();
      return { status: error.response.status, body: text ? JSON.parse(text) : undefined };
    }
    const axios = error as { response?: { status: number; data: unknown } };
    if (axios.response) return { status: axios.response.status, body: axios.response.data };
    throw error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The value of a UI node's attributes by name. */
export function nodeNamed(flow: { ui: { nodes: any[] } }, name: string): any {
  return flow.ui.nodes.find((n) => n.attributes?.name === name);
}

export function csrfTokenOf(flow: { ui: { nodes: any[] } }): string {
  return String(nodeNamed(flow, 'csrf_token')?.attributes.value ?? '');
}

/** Awaits a client call and, when it fails, rethrows with the status and body so a failing test says why. */
export async function explained<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ResponseError) {
      const text = await error.response.clone().text();
      throw new Error(`${error.response.status} ${error.response.url}: ${text.slice(0, 2000)}`);
    }
    throw error;
  }
}

/** Every message id of a flow: the flow's own messages and those of its nodes. */
export function messageIds(flow: {
  ui: { messages?: { id: number }[]; nodes: { messages: { id: number }[] }[] };
}): number[] {
  return [...(flow.ui.messages ?? []), ...flow.ui.nodes.flatMap((n) => n.messages)].map((m) => m.id);
}
