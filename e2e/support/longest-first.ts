import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The files that take longest, longest first, as measured on this machine class: most of their time is spent waiting
 * on the clock (an idle timeout, a grace window, a failover) or in a browser. Started first, their waits overlap the
 * other files' work; started last, as on a clean checkout (no durations of earlier runs, so vitest starts the largest
 * files first), the run ended with one of them and idle cores for up to 40 s.
 */
const LONGEST = [
  'e2e/api/database-silent-failover.test.ts',
  'e2e/api/oidc-session-rules.test.ts',
  'e2e/api/session-tokens.test.ts',
  'e2e/api/fuzz-all-calls.test.ts',
  'e2e/api/forward-auth.test.ts',
  'e2e/api/attacks-input.test.ts',
  'e2e/api/oidc-provider.test.ts',
  'e2e/api/cli.test.ts',
  'e2e/api/fuzz.test.ts',
  'e2e/api/session-idle.test.ts',
  'e2e/browser/mobile.test.ts',
  'e2e/browser/accessibility-overview.test.ts',
  'e2e/browser/overview-layout.test.ts',
  'e2e/browser/accessibility-focus.test.ts',
  'e2e/browser/apache-oidc.test.ts',
  'e2e/browser/administrator-day.test.ts',
  'e2e/browser/user-management.test.ts',
  'e2e/browser/passkeys.test.ts',
];

const missing = LONGEST.filter((file) => !existsSync(path.join(ROOT, file)));
if (missing.length > 0)
  throw new Error(`e2e/support/longest-first.ts names files that are gone: ${missing.join(', ')}`);

/** Vitest's order (longest of the last run first, else largest first), with the files above before the rest. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST.indexOf(path.relative(ROOT, file.moduleId).split(path.sep).join('/'));
      return index < 0 ? LONGEST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
