import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A migrated PGlite data directory made at build time (ADR 020): the first start on an empty
 * DATA_DIR unpacks it instead of creating a cluster in WebAssembly (initdb) and migrating it,
 * which cost about 4 of the 5 seconds before the portal answered. Never used for PostgreSQL.
 *
 * The image is the uncompressed tarball of `dumpDataDir()`, unpacked here with Node's file system
 * into a staging directory that is then renamed to DATA_DIR: about 0.5 s less than PGlite's own
 * `loadDataDir` (which writes each file through its WebAssembly file system), and a start killed
 * half-way never leaves a half-written DATA_DIR behind.
 */
export interface PgliteImage {
  /** The tarball of the data directory. */
  tar: string;
  /** What it holds (ImageManifest as JSON); an image without one is never used. */
  manifest: string;
}

/** What `npm run build` makes beside the compiled server: dist/pglite-image.{tar,json}. */
export const builtImage: PgliteImage = {
  tar: fileURLToPath(new URL('../pglite-image.tar', import.meta.url)),
  manifest: fileURLToPath(new URL('../pglite-image.json', import.meta.url)),
};

export interface ImageManifest {
  /**
   * The PGlite release that wrote the directory; another one may not read it (docs/stack-notes.md).
   */
  pglite: string;
  /** The migrations applied in the image, in order, with the SHA-256 of each SQL file. */
  migrations: { tag: string; hash: string }[];
}

interface Journal {
  entries: { tag: string }[];
}

function pgliteVersion(): string {
  // The package's exports leave out package.json; it sits above the resolved entry (dist/).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const file = path.join(path.dirname(entry), '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The manifest an image made now from this migrations folder (client.ts) would have. */
export async function currentManifest(folder: string): Promise<ImageManifest> {
  const journal = JSON.parse(
    await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
  const migrations = await Promise.all(
    journal.entries.map(async ({ tag }) => ({
      tag,
      hash: createHash('sha256')
        .update(await readFile(path.join(folder, `${tag}.sql`)))
        .digest('hex'),
    })),
  );
  return { pglite: pgliteVersion(), migrations };
}

/**
 * Whether an image may start a database migrated with `current`: same PGlite, and its
 * migrations are the first ones of the folder, unchanged. Migrations added since then run on top
 * at start, exactly as on any existing database; an image whose migration was edited or removed
 * (or from another PGlite) is ignored, and the start creates the cluster as without an image.
 */
export function imageFits(image: ImageManifest, current: ImageManifest): boolean {
  if (image.pglite !== current.pglite || !Array.isArray(image.migrations)) return false;
  if (image.migrations.length > current.migrations.length) return false;
  return image.migrations.every(
    (m, i) => m.tag === current.migrations[i]?.tag && m.hash === current.migrations[i]?.hash,
  );
}

/** Writes the tarball of a migrated data directory and its manifest (the build's last step). */
export async function writeImage(
  dump: Blob,
  manifest: ImageManifest,
  image: PgliteImage,
): Promise<void> {
  await mkdir(path.dirname(image.tar), { recursive: true });
  // The manifest last: an interrupted build leaves no manifest, so no image is used.
  await rm(image.manifest, { force: true });
  await writeFile(image.tar, Buffer.from(await dump.arrayBuffer()));
  await writeFile(image.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
}

export type ImageOutcome =
  /** DATA_DIR was empty or missing and now holds the image's migrated cluster. */
  | 'unpacked'
  /** DATA_DIR holds something already (a database, or anything else): left untouched. */
  | 'not-empty'
  /** No image (or no manifest) was built. */
  | 'missing'
  /** The image does not fit this migrations folder or PGlite (imageFits). */
  | 'stale';

/**
 * Unpacks the image into `dataDir` if, and only if, that directory is missing or empty. Anything
 * already there, even a single unrelated file, is never overwritten.
 */
export async function unpackImage(
  dataDir: string,
  image: PgliteImage,
  folder: string,
): Promise<ImageOutcome> {
  const existing = await entriesOf(dataDir);
  if (existing !== null && existing.length > 0) return 'not-empty';
  let manifest: ImageManifest;
  let tar: Buffer;
  try {
    manifest = JSON.parse(await readFile(image.manifest, 'utf8')) as ImageManifest;
    tar = await readFile(image.tar);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    if (error instanceof SyntaxError) return 'stale'; // a manifest cut short: not trusted
    throw error;
  }
  if (!imageFits(manifest, await currentManifest(folder))) return 'stale';

  const staging = path.join(
    path.dirname(dataDir),
    `.${path.basename(dataDir)}.image-${randomBytes(4).toString('hex')}`,
  );
  try {
    await mkdir(staging, { recursive: true, mode: 0o700 });
    await extractTar(tar, staging);
    // rename() replaces an empty directory on POSIX but not on Windows, hence rmdir first;
    // rmdir itself refuses a directory that something wrote into meanwhile.
    if (existing !== null) await rmdir(dataDir);
    await rename(staging, dataDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return 'not-empty';
    throw error;
  }
  return 'unpacked';
}

/** The directory's entries, or null when it does not exist. */
async function entriesOf(dir: string): Promise<string[] | null> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

const BLOCK = 512;

/**
 * Unpacks a ustar archive as PGlite's dumpDataDir writes it: directories and regular files only,
 * with paths relative to the data directory. Anything else, or a path leaving `target`, is
 * refused: the image is the build's own file, but a broken one must not write elsewhere. The
 * archive is parsed first, then the directories made, then its 1,100 files written at once, so
 * that the thread pool overlaps them (and main.ts's module loading).
 */
export async function extractTar(tar: Buffer, target: string): Promise<void> {
  const root = path.resolve(target);
  const directories = new Set<string>([root]);
  const files: { destination: string; data: Buffer; mode: number }[] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break; // end of archive
    const name = field(header, 0, 100);
    const prefix = field(header, 345, 155);
    const mode = parseInt(field(header, 100, 8) || '0', 8) & 0o777;
    const size = parseInt(field(header, 124, 12) || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const relative = (prefix ? `${prefix}/${name}` : name).replace(/^\/+/, '');
    const destination = path.resolve(root, relative);
    if (destination !== root && !destination.startsWith(root + path.sep))
      throw new Error(`the PGlite image holds a path outside its directory: ${relative}`);
    const dataStart = offset + BLOCK;
    if (type === '5') {
      directories.add(destination);
    } else if (type === '0' || type === '\0') {
      if (dataStart + size > tar.length) throw new Error('the PGlite image is truncated');
      directories.add(path.dirname(destination));
      files.push({ destination, data: tar.subarray(dataStart, dataStart + size), mode });
    } else {
      throw new Error(`the PGlite image holds an entry of tar type ${JSON.stringify(type)}`);
    }
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
  }
  // Parents sort before their children; PostgreSQL wants its directories private.
  for (const directory of [...directories].sort())
    await mkdir(directory, { recursive: true, mode: 0o700 });
  await Promise.all(
    files.map(({ destination, data, mode }) =>
      writeFile(destination, data, { mode: mode || 0o600 }),
    ),
  );
}

/** A NUL-terminated ASCII field of a tar header. */
function field(header: Buffer, start: number, length: number): string {
  const bytes = header.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return bytes
    .subarray(0, end === -1 ? length : end)
    .toString('utf8')
    .trim();
}
