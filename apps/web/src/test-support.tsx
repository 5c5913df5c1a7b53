import { type ReactNode, useState } from 'react';
import { act, render, screen, within } from '@testing-library/react';
import {
  createPath,
  MemoryRouter,
  type Navigator,
  parsePath,
  Router,
  Routes,
  type To,
  useLocation,
} from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { vi } from 'vitest';
import { forgetPortalConfig } from './api/portal-config';
import { ToastProvider } from './components/Toasts';

/** An answer: JSON `body`, or `text` of a `type` (a CSV file). */
type Answer = { status: number; body?: unknown; text?: string; type?: string };
type Handler = (url: URL, init: RequestInit | undefined) => Answer | undefined;

/** Answers the portal's fetch calls from a table of handlers (the network, not our components, is faked). */
export function fakeNetwork(handler: Handler) {
  const calls: { url: URL; init: RequestInit | undefined }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input), window.location.origin);
    const effective = request ? { method: request.method, body: await request.clone().text() } : init;
    calls.push({ url, init: effective });
    const answer = handler(url, effective) ?? { status: 404, body: { error: { code: 404, message: 'Not Found' } } };
    if (answer.text !== undefined)
      return new Response(answer.text, { status: answer.status, headers: { 'Content-Type': answer.type ?? '' } });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** The providers every screen runs in, fresh each render: no cached server answers, the configuration read afresh. */
function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}

/** Renders `routes` at `path` as a new page load; `state` is the router's state on arrival (`<Navigate state>`). */
export function renderAt(path: string, routes: ReactNode, state?: unknown) {
  forgetPortalConfig();
  const entry = state === undefined ? path : { ...parsePath(path), state };
  return render(
    <Providers>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>{routes}</Routes>
      </MemoryRouter>
    </Providers>,
  );
}

/** A router whose address is `path` until the test shows another through `expose`'s setter. */
function HeldRouter(props: {
  path: string;
  navigator: Navigator;
  expose(show: (to: To) => void): void;
  children: ReactNode;
}) {
  const [location, setLocation] = useState<To>(props.path);
  props.expose(setLocation);
  return (
    <Router location={location} navigator={props.navigator}>
      <Routes>{props.children}</Routes>
    </Router>
  );
}

/**
 * Renders `routes` at `path` under a router that changes the address only when the test calls `release()`. In the
 * browser React Router changes it in a transition, so a person may type or choose before the new address is shown.
 */
export function renderHeldAt(path: string, routes: ReactNode) {
  forgetPortalConfig();
  let held: To | undefined;
  let show: (to: To) => void = () => {};
  const hold = (to: To) => {
    held = to;
  };
  const createHref = (to: To) => (typeof to === 'string' ? to : createPath(to));
  const navigator: Navigator = { createHref, go() {}, push: hold, replace: hold };
  render(
    <Providers>
      <HeldRouter path={path} navigator={navigator} expose={(setter) => (show = setter)}>
        {routes}
      </HeldRouter>
    </Providers>,
  );
  return {
    /** Shows the address the screen asked for last. */
    release: () => act(() => held !== undefined && show(held)),
  };
}

/** Shows the router's current address, to assert where a screen sent the person. */
export function Address() {
  const location = useLocation();
  return <p>Adres: {`${location.pathname}${location.search}`}</p>;
}

const urlOf = (input: RequestInfo | URL) =>
  new URL(input instanceof Request ? input.url : String(input), window.location.origin);

/** Leaves the answers to matching requests pending, to look at a loading or sending state; returns those requests. */
export function holdBack(matches: (url: URL) => boolean) {
  const answer = globalThis.fetch;
  const held: URL[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input);
    if (!matches(url)) return answer(input, init);
    held.push(url);
    return new Promise<Response>(() => {});
  });
  return held;
}

/** Lets matching requests wait until `release()` is called, then answers them as before: a late answer. */
export function answerLater(matches: (url: URL) => boolean) {
  const answer = globalThis.fetch;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (matches(urlOf(input))) await released;
    return answer(input, init);
  });
  return release;
}

/** Leaves matching requests unanswered until the caller gives up: they fail only when their signal aborts. */
export function silent(matches: (url: URL) => boolean) {
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (!matches(urlOf(input))) return answer(input, init);
    return new Promise<Response>((_, reject) =>
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
    );
  });
}

/**
 * Catches files the page hands the browser (a blob link with `download`, clicked): their names, types and contents.
 * `restore()` puts the browser's own functions back.
 */
export function captureDownloads() {
  const files: { name: string; href: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const href = `blob:http://localhost:3000/${blobs.size + 1}`;
    blobs.set(href, blob);
    return href;
  });
  URL.revokeObjectURL = vi.fn();
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push({ name: this.download, href: this.href, blob: blobs.get(this.href)! });
  });
  return {
    files,
    restore() {
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
      click.mockRestore();
    },
  };
}

/** Makes matching requests fail as a browser does when the server cannot be reached. */
export function unreachable(matches: (url: URL) => boolean) {
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    matches(urlOf(input)) ? Promise.reject(new TypeError('Failed to fetch')) : answer(input, init),
  );
}

/** The flow id and JSON body of every POST the screen made, in order. */
export const posted = (calls: ReturnType<typeof fakeNetwork>) =>
  calls
    .filter((call) => call.init?.method === 'POST')
    .map((call) => ({
      flow: call.url.searchParams.get('flow'),
      body: JSON.parse(String(call.init?.body)) as Record<string, unknown>,
    }));

/** The progress steps as text, the current one marked ' [nu]'. */
export const stepsOf = () =>
  within(screen.getByRole('list', { name: 'Voortgang' }))
    .getAllByRole('listitem')
    .map((step) => `${step.textContent}${step.getAttribute('aria-current') === 'step' ? ' [nu]' : ''}`);

/** The error summary ('Controleer de volgende velden:') of the form on screen. */
export const errorSummary = () => screen.getByRole('alert', { name: 'Controleer de volgende velden:' });

/** The problems the error summary lists, in order. */
export const summaryItems = () =>
  within(errorSummary())
    .getAllByRole('listitem')
    .map((item) => item.textContent);

/** What assistive technology reads as the field's description: the texts of its `aria-describedby` elements. */
export const descriptionOf = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');
