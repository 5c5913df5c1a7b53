import fs from 'node:fs';
import path from 'node:path';
import { BackupError, backupSqlite, restoreSqlite, sqliteFileOf } from '@portaal/idp';
import { loadConfig } from './config.js';

const POSTGRES_ADVICE =
  'de database is PostgreSQL: maak de back-up met pg_dump en zet hem terug met pg_restore (zie de README).';

/** `portaal backup FILE`: an online backup of the SQLite database, safe while the server runs. */
export async function backup(args: string[]): Promise<number> {
  const [target, ...extra] = args;
  if (!target || extra.length > 0) throw new BackupError("geef één doelbestand op: 'portaal backup BESTAND'.");
  const file = sqliteFileOf(loadConfig().databaseUrl);
  if (!file) throw new BackupError(POSTGRES_ADVICE);
  const started = Date.now();
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1).replace('.', ',');
  process.stdout.write(`Back-up maken van ${file} (${mib(fs.statSync(file).size)} MiB)…\n`);
  const { bytes } = await backupSqlite(file, path.resolve(target));
  const seconds = ((Date.now() - started) / 1000).toFixed(1).replace('.', ',');
  process.stdout.write(
    `Back-up gemaakt en gecontroleerd in ${seconds} s (${mib(bytes)} MiB): ${path.resolve(target)}\n`,
  );
  return 0;
}

/** `portaal restore FILE`: a checked backup becomes the database of an empty data directory. */
export async function restore(args: string[]): Promise<number> {
  const [source, ...extra] = args;
  if (!source || extra.length > 0) throw new BackupError("geef één back-upbestand op: 'portaal restore BESTAND'.");
  const file = sqliteFileOf(loadConfig().databaseUrl);
  if (!file) throw new BackupError(POSTGRES_ADVICE);
  restoreSqlite(path.resolve(source), file);
  process.stdout.write(`Back-up teruggezet in ${file}. Start de server met dezelfde SECRETS_COOKIE.\n`);
  return 0;
}
