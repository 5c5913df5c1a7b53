import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Debian's Apache httpd executable (or the one APACHE_PATH names), or undefined when none is installed. */
export function findApache() {
  if (process.env.APACHE_PATH) return existsSync(process.env.APACHE_PATH) ? process.env.APACHE_PATH : undefined;
  // Debian installs it in sbin, which a user's PATH may leave out.
  const folders = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'];
  return folders.map((folder) => path.join(folder, 'apache2')).find((candidate) => existsSync(candidate));
}

/**
 * The shared object of an Apache module (`auth_openidc`, `proxy_http`, …) as Debian's package declares it in
 * `<HTTPD_ROOT>/mods-available/<name>.load`, the root being the one the installed httpd was built with; undefined
 * when httpd or the module is not installed.
 */
export function findApacheModule(name) {
  const apache = findApache();
  if (!apache) return undefined;
  // `-V` prints the build settings even where the system configuration does not parse (it then exits with 1).
  const settings = spawnSync(apache, ['-V'], { encoding: 'utf8' }).stdout ?? '';
  const root = /HTTPD_ROOT="([^"]+)"/.exec(settings)?.[1];
  const load = root ? path.join(root, 'mods-available', `${name}.load`) : undefined;
  if (!load || !existsSync(load)) return undefined;
  const file = /^\s*LoadModule\s+\S+\s+(\S+)/m.exec(readFileSync(load, 'utf8'))?.[1];
  return file && existsSync(file) ? file : undefined;
}
