import fs from 'node:fs';
import path from 'node:path';

/** The files the portal keeps in DATA_DIR: the SQLite database with its journal and lock, and the secrets. */
const OWN_FILE = /^(portaal\.sqlite.*|secrets\.json|oidc-jwks\.json)$/;

/**
 * DATA_DIR holds password hashes, authenticator-app secrets, signing keys and the cookie secret: readable by the
 * portal's own user only (0700, its files 0600), also when an earlier version or a looser umask left them readable
 * by others (docs/security.md#7-password-storage). New files get 0600 from the process' umask (bin/portaal.js).
 */
export function keepDataDirPrivate(dataDir: string, databaseFile: string | undefined): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
  const own = fs
    .readdirSync(dataDir)
    .filter((name) => OWN_FILE.test(name))
    .map((name) => path.join(dataDir, name));
  const database = databaseFile ? [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`] : [];
  for (const file of new Set([...own, ...database])) {
    if (fs.existsSync(file)) fs.chmodSync(file, 0o600);
  }
}
