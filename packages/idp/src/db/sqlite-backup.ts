import fs from 'node:fs';
import SQLite from 'better-sqlite3';

/** A backup or restore that cannot be done as asked; the message is Dutch and says why. */
export class BackupError extends Error {}

/**
 * Copies a SQLite database as one consistent snapshot while the server keeps writing (a plain copy of the file can
 * miss what is still in the write-ahead log), into a temporary file beside the target, checks the copy, and only then
 * gives it the target's name: a backup that fails or is interrupted leaves no file under that name.
 *
 * `VACUUM INTO` reads the snapshot in one read transaction, which writers in WAL mode do not disturb. SQLite's online
 * backup API instead starts over whenever another process writes, and on a busy database never finished.
 */
export async function backupSqlite(databaseFile: string, backupFile: string): Promise<{ bytes: number }> {
  if (!fs.existsSync(databaseFile)) throw new BackupError(`er is geen database in ${databaseFile}.`);
  if (fs.existsSync(backupFile)) throw new BackupError(`${backupFile} bestaat al; kies een nieuw bestand.`);
  const partial = `${backupFile}.${process.pid}.partial`;
  try {
    const source = new SQLite(databaseFile, { fileMustExist: true, readonly: true });
    try {
      source.pragma('busy_timeout = 5000');
      source.prepare('vacuum into ?').run(partial);
    } finally {
      source.close();
    }
    ensureIntact(partial);
    // A hard link fails if the target appeared meanwhile, where a rename would replace it.
    fs.linkSync(partial, backupFile);
    return { bytes: fs.statSync(backupFile).size };
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/** Puts a checked backup in place as the database of a data directory that has none yet. */
export function restoreSqlite(backupFile: string, databaseFile: string): void {
  if (!fs.existsSync(backupFile)) throw new BackupError(`${backupFile} bestaat niet.`);
  for (const existing of [databaseFile, `${databaseFile}-wal`]) {
    if (fs.existsSync(existing)) {
      throw new BackupError(`${existing} bestaat al; zet een back-up alleen terug in een lege datamap.`);
    }
  }
  ensureIntact(backupFile);
  fs.copyFileSync(backupFile, databaseFile, fs.constants.COPYFILE_EXCL);
}

function ensureIntact(file: string): void {
  let verdict: string;
  try {
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      verdict = String(db.pragma('integrity_check', { simple: true }));
    } finally {
      db.close();
    }
  } catch {
    throw new BackupError(`${file} is geen SQLite-database.`);
  }
  if (verdict !== 'ok') throw new BackupError(`${file} is beschadigd (integrity_check: ${verdict}).`);
}
