#!/usr/bin/env node
// Fails when an installed package does not declare support for the Node that runs this script,
// or when npm's install log warned about one (ADR 040). The project declares Node >= 20.19 and the
// machines run Node 20: a dependency that moved to Node 22 must be pinned, not installed with a
// warning nobody reads.
//
//   npm ci 2>&1 | tee npm-ci.log; node scripts/check-engines.mjs npm-ci.log
//   node scripts/check-engines.mjs            (the installed tree only)
//
// Reads every package that package-lock.json lists and that is installed here (optional packages
// for other platforms are not), from its own package.json on disk.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const node = process.version;
const problems = [];

const rootRange = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines?.node;
if (rootRange && !semver.satisfies(node, rootRange)) {
  problems.push(`this Node (${node}) is outside the project's own engines.node "${rootRange}"`);
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
let checked = 0;
for (const path of Object.keys(lock.packages ?? {})) {
  if (!path.includes('node_modules/')) continue; // the root and the workspaces
  const manifest = join(ROOT, path, 'package.json');
  if (!existsSync(manifest)) continue; // an optional package of another platform
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  checked += 1;
  const range = pkg.engines?.node;
  if (typeof range !== 'string' || range.trim() === '') continue;
  if (!semver.satisfies(node, range, { includePrerelease: true })) {
    problems.push(`${pkg.name}@${pkg.version} (${path}) requires Node "${range}"`);
  }
}

const log = process.argv[2];
if (log) {
  const lines = readFileSync(log, 'utf8').split('\n');
  const warned = lines.filter((line) => line.includes('EBADENGINE') && line.includes('package:'));
  for (const line of warned) problems.push(`npm warned: ${line.trim()}`);
  if (warned.length === 0 && lines.some((line) => line.includes('EBADENGINE'))) {
    problems.push('npm printed EBADENGINE');
  }
}

if (problems.length > 0) {
  console.error(`Packages that do not support Node ${node}:`);
  for (const problem of problems) console.error(`  ${problem}`);
  console.error('Pin a version that supports it (ADR 040).');
  process.exit(1);
}
console.log(
  `${checked} installed packages support Node ${node}${log ? '; npm warned of none' : ''}`,
);
