import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Writes that belong together cannot be made apart: a repository operation that writes several rows takes a
// `Transaction`, which only `db.transaction()` hands out, so calling it with the plain database does not compile
// (docs/architecture.md#writes-that-belong-together). The compiler itself is asked, on a file beside the repository.

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'transaction-type-fixture.ts');

const SOURCE = `
import type { Db } from '../db/database.js';
import { deleteIdentity, insertIdentity, saveCredential, updateIdentity } from './identity-repository.js';
declare const db: Db;
const clock = { now: () => new Date() };
const traits = { email: 'anne@voorbeeldstad.nl' };
export async function apart() {
  await insertIdentity(db.kysely, clock, { traits });
  await updateIdentity(db.kysely, clock, 'id', { traits });
  await saveCredential(db.kysely, clock, 'id', 'password', {}, []);
  await deleteIdentity(db.kysely, 'id');
}
export async function together() {
  await db.kysely.transaction().execute(async (trx) => {
    await insertIdentity(trx, clock, { traits });
    await updateIdentity(trx, clock, 'id', { traits });
    await saveCredential(trx, clock, 'id', 'password', {}, []);
    await deleteIdentity(trx, 'id');
  });
}
`;

describe('the Transaction type', () => {
  it('refuses the plain database where a multi-row write needs a transaction, and takes a transaction', () => {
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (name) => (name === fixture ? SOURCE : readFile(name));
    host.fileExists = (name) => name === fixture || fileExists(name);
    host.getSourceFile = (name, language) =>
      name === fixture ? ts.createSourceFile(name, SOURCE, language) : getSourceFile(name, language);
    const program = ts.createProgram([fixture], options, host);
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return [d.file?.fileName === fixture ? SOURCE.split('\n')[line - 1]?.trim() : d.file?.fileName, d.code];
    });
    expect(errors).toEqual([
      ['await insertIdentity(db.kysely, clock, { traits });', 2345],
      ["await updateIdentity(db.kysely, clock, 'id', { traits });", 2345],
      ["await saveCredential(db.kysely, clock, 'id', 'password', {}, []);", 2345],
      ["await deleteIdentity(db.kysely, 'id');", 2345],
    ]);
  }, 60_000);
});
