#!/usr/bin/env node
// Fails when the README, a README of a folder or a page in docs/ names a file or folder of the repository that does
// not exist, so that a rename cannot leave the map pointing nowhere. Run by `npm run lint`. A name in backticks that
// looks like a path (a folder and a name with an extension, or a folder ending in `/`) counts: in full from the root,
// relative to the page, or, for a short form such as `oidc/oidc-routes.ts`, as the end of some tracked path.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const tracked = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
// Files still to be committed count too: the check runs before a commit as well as in CI.
const untracked = execFileSync('git', ['ls-files', '-z', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\0')
  .filter(Boolean);
const files = new Set([...tracked, ...untracked]);
const folders = new Set(
  [...files].flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);

const pages = [...files].filter(
  (file) => file.endsWith('.md') && (file === 'README.md' || file.startsWith('docs/') || file.endsWith('/README.md')),
);
// A path: no spaces, no scheme, an extension of ours or a trailing slash; with or without folders.
const PATH =
  /^(?![a-z]+:)(?!\/)([\w@.-]+\/)*([\w@.[\]-]+\.(ts|tsx|mjs|js|json|md|ya?ml|conf|html|service|css|sql)|[\w@.-]+\/)$/;
// Files the product writes at run time or that a reader makes, what it serves under a name of its own (Kratos'
// `webauthn.js`), and paths in other projects (nginx's `conf.d/`, Kratos' sources), named in the docs on purpose.
const ELSEWHERE = [
  /^(DATA_DIR|data)\//,
  /^test-results\//,
  /^node_modules\//,
  /\/dist\//,
  /^conf\.d\//,
  /^embedx\//,
  /^selfservice\//,
  /^webauthn\.js$/,
  // What `portaal export kratos` writes into the folder it is given.
  /^relation-tuples\.json$/,
];

const exists = (name, page) => {
  const bare = name.replace(/\/$/, '');
  const candidates = [bare, path.posix.normalize(path.posix.join(path.posix.dirname(page), bare))];
  if (candidates.some((candidate) => files.has(candidate) || folders.has(candidate))) return true;
  // A short form: the end of a tracked path (or folder) at a folder boundary.
  return [...files, ...folders].some((known) => known === bare || known.endsWith(`/${bare}`));
};

const missing = [];
for (const page of pages) {
  const text = readFileSync(page, 'utf8');
  for (const [, name] of text.matchAll(/`([^`\s]+)`/g)) {
    const plain = name.replace(/[#:].*$/, '');
    if (!PATH.test(plain) || ELSEWHERE.some((pattern) => pattern.test(plain))) continue;
    if (!exists(plain, page)) missing.push(`${page}: \`${name}\``);
  }
}

if (missing.length > 0) {
  console.error(`Paths named in the docs that the repository does not have:\n${missing.join('\n')}`);
  process.exit(1);
}
