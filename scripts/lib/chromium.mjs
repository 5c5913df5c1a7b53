import { existsSync } from 'node:fs';

/** Debian's Chromium executable (or the one named by CHROMIUM_PATH), or undefined when none is installed. */
export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}
