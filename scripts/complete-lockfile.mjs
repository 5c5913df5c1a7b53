#!/usr/bin/env node
// The npm registry this project is built from serves only the Linux builds of some packages with per-platform
// binaries (rollup's). `npm install` then leaves the other platforms' optional packages out of package-lock.json,
// and `npm ci` refuses the lock file as out of sync. This adds those entries back, marked optional and with the
// os/cpu/libc read from the package name, so `npm ci` skips them on platforms they are not for.
// Run it after `npm install` changes the lock file: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32', 'sunos', 'aix', 'netbsd'];
const CPU = [
  ['arm-eabi', 'arm'],
  ['arm-gnueabihf', 'arm'],
  ['arm-musleabihf', 'arm'],
  ['arm64', 'arm64'],
  ['x64', 'x64'],
  ['ia32', 'ia32'],
  ['loong64', 'loong64'],
  ['ppc64', 'ppc64'],
  ['riscv64', 'riscv64'],
  ['s390x', 's390x'],
];

function platformOf(name) {
  const base = name.split('/').pop();
  const os = OS.find((o) => base.includes(`-${o}-`));
  const cpu = CPU.find(([token]) => base.includes(`-${token}`))?.[1];
  if (!os || !cpu) return undefined;
  return {
    os: [os],
    cpu: [cpu],
    ...(base.includes('musl')
      ? { libc: ['musl'] }
      : base.includes(`-${os}-`) && os === 'linux'
        ? { libc: ['glibc'] }
        : {}),
  };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) continue;
    packages[`node_modules/${name}`] = {
      version: spec,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} platform package(s) added`);
