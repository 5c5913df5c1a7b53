// `portaal` from tsc's separate modules instead of the one bundled file, for coverage runs (scripts/coverage.mjs):
// V8's coverage of each module maps through that module's own source map to packages/*/src.
import { main } from '../../apps/server/dist/cli.js';

await main(process.argv.slice(2));
