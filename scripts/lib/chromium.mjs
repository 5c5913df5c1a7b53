import { existsSync } from 'node:fs';

/** Debian's Chromium executable (or the one named by CHROMIUM_PATH), or undefined when none is installed. */
export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}

/**
 * Debian's `chromium-headless-shell` (or the one named by CHROMIUM_PATH): Chromium's own Blink, V8 and DevTools
 * protocol without the browser's windowing shell, as Playwright runs headless Chromium by default. The journeys run
 * in it: the full browser spent 3.8 s of CPU per launch in its browser process, and the journeys took 334 s, not 245.
 */
export function findHeadlessChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium-headless-shell'];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}
