#!/usr/bin/env node
// Fails when e2e/browser/README.md and the journeys' test titles disagree: every "journey N:" in a title must be in
// the index with its file, and every row of the index must name a journey that exists there. The docs cite journeys
// by number, so the number must lead to the file. Run by `npm run lint`.
import { readdirSync, readFileSync } from 'node:fs';

const folder = new URL('../e2e/browser/', import.meta.url);
const inTitles = new Set();
for (const file of readdirSync(folder).filter((name) => name.endsWith('.test.ts'))) {
  const source = readFileSync(new URL(file, folder), 'utf8');
  for (const match of source.matchAll(/(?:describe|it)\(\s*['"`]journey (\d+[a-z]?):/gi)) {
    inTitles.add(`${match[1]} ${file}`);
  }
}
const index = readFileSync(new URL('README.md', folder), 'utf8');
const inIndex = new Set(
  [...index.matchAll(/^\|\s*(\d+[a-z]?)\s*\|\s*`([^`]+)`/gm)].map((match) => `${match[1]} ${match[2]}`),
);
const missing = [...inTitles].filter((entry) => !inIndex.has(entry));
const stale = [...inIndex].filter((entry) => !inTitles.has(entry));
for (const entry of missing) console.error(`e2e/browser/README.md lacks journey ${entry.replace(' ', ' in ')}`);
for (const entry of stale)
  console.error(`e2e/browser/README.md names journey ${entry.replace(' ', ' in ')}, not found`);
process.exit(missing.length + stale.length > 0 ? 1 : 0);
