import { chromium, type Browser } from 'playwright-core';
import { findHeadlessChromium } from '../../../scripts/lib/chromium.mjs';

/** Debian's headless Chromium (installed by scripts/ensure-test-deps.mjs), or the one CHROMIUM_PATH names. */
function chromiumPath(): string {
  const found = findHeadlessChromium();
  if (!found) throw new Error('Chromium is missing: run `node scripts/ensure-test-deps.mjs` (or set CHROMIUM_PATH)');
  return found;
}

export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}
