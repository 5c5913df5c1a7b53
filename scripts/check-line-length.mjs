#!/usr/bin/env node
// Fails when a source file of the repository (tracked, or new and not ignored) has a line over 120 characters. Biome
// formats code to that width but leaves long string literals and test names alone; this check, run by `npm run lint`,
// catches those.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const MAX = 120;
const PATTERNS = ['*.ts', '*.tsx', '*.mjs', '*.js', '*.css'];
const EXCLUDED = [
  // Ory's own JSON schemas, copied as published.
  'deploy/ory/schemas/',
];

// New files count too: a check that passes before `git add` must not fail on a clean clone after the commit.
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...PATTERNS], {
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => file !== '' && !EXCLUDED.some((prefix) => file.startsWith(prefix)) && existsSync(file));

const findings = [];
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  lines.forEach((line, index) => {
    // Characters as people count them (code points), like awk's length in a UTF-8 locale.
    const length = [...line].length;
    if (length > MAX) findings.push(`${file}:${index + 1}: ${length} characters`);
  });
}

if (findings.length > 0) {
  console.error(`Lines over ${MAX} characters:\n${findings.join('\n')}`);
  process.exit(1);
}
