import { existsSync } from 'node:fs';

/** Debian's `jsonnet` (the C++ interpreter; or the one JSONNET_PATH names), or undefined when none is installed. */
export function findJsonnet() {
  const candidates = [process.env.JSONNET_PATH, '/usr/bin/jsonnet', '/usr/local/bin/jsonnet'];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}
