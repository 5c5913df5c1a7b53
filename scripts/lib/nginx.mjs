import { existsSync } from 'node:fs';

/** Debian's nginx executable (or the one NGINX_PATH names), or undefined when none is installed. */
export function findNginx() {
  const candidates = [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/local/sbin/nginx'];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}
