import { gzipSync } from 'node:zlib';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

const BUDGET_KB = 100;

/** The JavaScript the sign-in screen loads: the entry chunk and every chunk it imports statically. */
function loginScreenChunks(bundle: OutputBundle): OutputChunk[] {
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const found = new Map<string, OutputChunk>();
  const visit = (chunk: OutputChunk) => {
    if (found.has(chunk.fileName)) return;
    found.set(chunk.fileName, chunk);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      if (imported) visit(imported);
    }
  };
  chunks.filter((chunk) => chunk.isEntry).forEach(visit);
  return [...found.values()];
}

/**
 * Prints the gzipped size of the sign-in screen's JavaScript against its budget (at most 100 KB) and fails the build
 * when it is over, so that a change that makes the sign-in heavier is noticed where it is made.
 */
export function loginBudget(): Plugin {
  let line = '';
  return {
    name: 'dvp-login-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = loginScreenChunks(bundle);
      const kb = chunks.reduce((sum, chunk) => sum + gzipSync(chunk.code).length, 0) / 1000;
      const size = `${kb.toFixed(1)} kB gzipped in ${chunks.length} file(s)`;
      line = `Sign-in screen JavaScript: ${size}, budget ${BUDGET_KB} kB`;
      if (kb > BUDGET_KB) this.error(`${line}: over budget (apps/web/README.md#size)`);
    },
    // After Vite's own list of files, so that the line is the last thing the build says.
    closeBundle(error) {
      if (line && !error) console.log(line);
    },
  };
}
