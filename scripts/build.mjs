#!/usr/bin/env node
// Builds the three workspaces in order (shared -> web -> server), each only when something it is
// built from changed since its last build (ADR 040).
//
//   node scripts/build.mjs           build what changed (npm start)
//   node scripts/build.mjs --force   build everything (npm run build: CI, e2e, a release)
//   node scripts/build.mjs --force @portal/web …   only the workspaces named (CI builds the
//                                    shared package before lint, the others beside it: ADR 065)
//
// After a build, a workspace's output folder gets a stamp (.build-stamp.json) with a digest of its
// inputs (each file's path, size, mtime and content; Node's version) and a digest of the output it
// produced (each file's path, size and mtime). A later run skips the workspace when both still
// match: nothing it is built from changed, and nothing rebuilt, replaced or deleted its output
// behind the stamp's back (`npm run build -w …`, a checkout, `rm -rf dist`). Anything else builds.
// The shared package's output is an input of the web app and of the server, by content, so a
// change there rebuilds both, and `npm run typecheck` rebuilding it to the same files rebuilds
// nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const STAMP = '.build-stamp.json';
/** Never inputs: outputs, installed packages, local data, test reports. */
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'test-results', 'playwright-report']);
/** Files every workspace is built from: the lockfile pins every compiler, bundler and plugin. */
const COMMON = ['package.json', 'package-lock.json', 'tsconfig.base.json'];

const WORKSPACES = [
  // Its output by content: `npm run typecheck`, `dev` and `demo` rebuild it from the same sources
  // (new mtimes, the same files), which must not make the start rebuild all three.
  { name: '@portal/shared', dir: 'packages/shared', inputs: ['packages/shared'], byContent: true },
  // Both bundle or import what the shared package compiled, so its output is their input.
  { name: '@portal/web', dir: 'apps/web', inputs: ['apps/web', 'packages/shared/dist'] },
  { name: '@portal/server', dir: 'apps/server', inputs: ['apps/server', 'packages/shared/dist'] },
];

/** Every file under `path` (a file or a folder), relative to the root, sorted. */
function files(path, skip = SKIP_DIRS) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  const found = [];
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    if (entry.isDirectory() && skip.has(entry.name)) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) found.push(...files(child, skip));
    else if (entry.isFile() && entry.name !== STAMP) found.push(child);
  }
  return found.sort();
}

/** A digest of files: path and size of each, with its mtime and/or its content as asked. */
function digest(paths, { mtime, content }) {
  const hash = createHash('sha256');
  for (const path of paths) {
    const stat = statSync(join(ROOT, path));
    hash.update(`${path}\0${stat.size}\0${mtime ? stat.mtimeMs : ''}\0`);
    if (content) hash.update(readFileSync(join(ROOT, path)));
  }
  return hash.digest('hex');
}

function inputDigest(workspace) {
  const sources = [...COMMON, ...workspace.inputs.filter((path) => !path.endsWith('/dist'))];
  // A folder named `dist` is an input only where it is listed itself (the shared package's
  // output), and by content only: rebuilt to the same files, it changes nothing downstream.
  const built = workspace.inputs.filter((path) => path.endsWith('/dist'));
  const own = digest(
    sources.flatMap((path) => files(path)),
    { mtime: true, content: true },
  );
  const upstream = digest(
    built.flatMap((path) => files(path, new Set())),
    { mtime: false, content: true },
  );
  return `${process.version}:${own}:${upstream}`;
}

/**
 * The output folder, stamp excluded: a rebuild, a deletion or a copy changes mtimes (or, for a
 * workspace built `byContent`, its files).
 */
function outputDigest(workspace) {
  const paths = files(join(workspace.dir, 'dist'), new Set());
  if (paths.length === 0) return null;
  return workspace.byContent
    ? digest(paths, { mtime: false, content: true })
    : digest(paths, { mtime: true, content: false });
}

function readStamp(workspace) {
  try {
    return JSON.parse(readFileSync(join(ROOT, workspace.dir, 'dist', STAMP), 'utf8'));
  } catch {
    return null;
  }
}

function build(workspace) {
  const stampFile = join(ROOT, workspace.dir, 'dist', STAMP);
  // A build that fails halfway must not leave an old stamp beside a half-written output.
  rmSync(stampFile, { force: true });
  const inputs = inputDigest(workspace);
  const started = Date.now();
  const run = spawnSync('npm', ['run', 'build', '-w', workspace.name], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    console.error(`build of ${workspace.name} failed`);
    process.exit(run.status ?? 1);
  }
  const output = outputDigest(workspace);
  if (output !== null) writeFileSync(stampFile, `${JSON.stringify({ inputs, output })}\n`);
  return Date.now() - started;
}

const force = process.argv.includes('--force');
const only = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const unknown = only.filter((name) => !WORKSPACES.some((workspace) => workspace.name === name));
if (unknown.length > 0) {
  console.error(`no such workspace: ${unknown.join(', ')}`);
  process.exit(2);
}
for (const workspace of WORKSPACES) {
  if (only.length > 0 && !only.includes(workspace.name)) continue;
  const stamp = force ? null : readStamp(workspace);
  const fresh =
    stamp !== null &&
    stamp.inputs === inputDigest(workspace) &&
    stamp.output === outputDigest(workspace);
  if (fresh) {
    console.log(`${workspace.name}: up to date, not rebuilt`);
    continue;
  }
  const why = force ? 'forced' : stamp === null ? 'no earlier build' : 'changed';
  console.log(`${workspace.name}: building (${why})`);
  const ms = build(workspace);
  console.log(`${workspace.name}: built in ${(ms / 1000).toFixed(1)} s`);
}
