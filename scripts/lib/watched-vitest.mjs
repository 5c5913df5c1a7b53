// Runs one vitest run of the test command with a time limit. A test file that hangs (a child process that never
// exits, a worker blocked in a synchronous call) would otherwise hold the whole run until CI gives up on it without
// saying where. Over the limit, this prints every process of the run with its age and command line, then ends them
// all: vitest, its workers and the `portaal` servers and browsers they started share the run's process group.
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LONG_FILES_REPORTER = fileURLToPath(new URL('./long-files-reporter.mjs', import.meta.url));

/**
 * vitest's options for `count` workers that keep the modules they loaded from one test file to the next (vitest's
 * `--no-isolate`), instead of a new process per file: loading Playwright, the Ory SDK and our modules again took 1 to
 * 3 s of CPU per file. Measured one after the other on this machine class: the unit tests 55 -> 23 s, the integration
 * files on SQLite 176 -> 130 s, the journeys about 400 -> 320 s. Every file still starts its own portals and browsers.
 * As many workers at least as at most: a pool allowed to shrink let a worker go with a file still running in it
 * ('Terminating worker thread': the run ended early, files unreported, their processes left running).
 */
export const workersKeepingModules = (count) => [`--maxWorkers=${count}`, `--minWorkers=${count}`, '--no-isolate'];

/** The status a run resolves to when Ctrl-C (or SIGTERM) ended it: the caller cleans up, then exits with it. */
export const INTERRUPTED = 130;

/**
 * `npx vitest run <args>` with the default reporter and one that names files still running after some minutes;
 * resolves to its exit code, to 1 when it outlives `limitMinutes`, or to INTERRUPTED.
 */
export function runVitest(args, { env = process.env, limitMinutes, label }) {
  return new Promise((resolve) => {
    const reporters = ['--reporter=default', `--reporter=${LONG_FILES_REPORTER}`];
    const child = spawn('npx', ['vitest', 'run', ...reporters, ...args], {
      // No terminal input: a process group in the background that read from it would be stopped.
      stdio: ['ignore', 'inherit', 'inherit'],
      env,
      detached: true,
    });
    const endGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group has ended already.
      }
    };
    // Detached, the run no longer gets the terminal's Ctrl-C: pass it on, and leave the exit to the caller, which
    // may have more to end (the throwaway PostgreSQL cluster of the integration runs).
    let wasInterrupted = false;
    const interrupted = () => {
      wasInterrupted = true;
      endGroup();
    };
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
    const limit = setTimeout(() => {
      console.error(`\n${label}: still running after ${limitMinutes} minutes; its processes, then ended:`);
      console.error(processesOfGroup(child.pid));
      endGroup();
    }, limitMinutes * 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      // What outlives vitest is left over: workers of a vitest that crashed (they spin at full CPU, slowing every
      // later suite), or servers and browsers a test did not stop. Say so, and end them.
      const left = processesOfGroup(child.pid)
        .split('\n')
        .slice(1)
        .filter((row) => !row.includes('<defunct>'));
      if (left.length > 0) {
        console.error(`\n${label}: processes left running after vitest ended, now ended:`);
        console.error(left.join('\n'));
        endGroup();
      }
      resolve(wasInterrupted ? INTERRUPTED : signal ? 1 : (code ?? 1));
    });
  });
}

function processesOfGroup(pgid) {
  try {
    const table = execFileSync('ps', ['-eo', 'pid,pgid,etime,args', '--sort=start_time'], { encoding: 'utf8' });
    const [header, ...rows] = table.trimEnd().split('\n');
    const ours = rows.filter((row) => row.trim().split(/\s+/)[1] === String(pgid));
    return [header, ...ours].map((row) => row.slice(0, 300)).join('\n');
  } catch (error) {
    return `(ps failed: ${error.message})`;
  }
}
