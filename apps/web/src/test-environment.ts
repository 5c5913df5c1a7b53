import { builtinEnvironments, type Environment } from 'vitest/environments';

/** Marks the global object whose window this worker keeps. */
const KEPT = Symbol.for('datavoorzieningen.jsdom-window');

/** The address every test file starts at, as vitest's own jsdom environment gives it. */
const START = 'http://localhost:3000/';

type Global = typeof globalThis & { [KEPT]?: true };

/** What a file may have left in the window: the page, its title and storage, the address. */
function resetWindow(global: Global) {
  global.document.head.replaceChildren();
  global.document.body.replaceChildren();
  global.document.title = '';
  global.localStorage.clear();
  global.sessionStorage.clear();
  global.history.replaceState(null, '', START);
}

/**
 * vitest's jsdom environment, with one window for all the test files a worker runs. vitest makes a new window per
 * file, but a worker that keeps its modules from file to file (the web run, scripts/unit-and-web.mjs) also keeps what
 * they bound to the first window: Testing Library's `screen`, react-aria's listeners. One window per worker keeps
 * them right; between files it is emptied instead.
 */
export default {
  name: 'jsdom-kept',
  transformMode: 'web',
  async setup(global: Global, options) {
    if (global[KEPT]) resetWindow(global);
    else {
      // Its teardown never runs: the window lives as long as the worker.
      await builtinEnvironments.jsdom.setup(global, options);
      global[KEPT] = true;
    }
    return { teardown() {} };
  },
} satisfies Environment;
