// `portaal` from tsc's separate modules instead of the one bundled file, for coverage runs (scripts/coverage.mjs):
// V8's coverage of each module maps through that module's own source map to packages/*/src.
import { runCli } from '../../apps/server/dist/cli.js';

process.umask(0o077);
process.exitCode = await runCli(process.argv.slice(2));
