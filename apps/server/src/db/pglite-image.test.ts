import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { units } from './schema.js';
import { migrationsFolder, openDatabase, runMigrations } from './client.js';
import { currentManifest, extractTar, imageFits, unpackImage, writeImage } from './pglite-image.js';
import type { ImageManifest, PgliteImage } from './pglite-image.js';

// Opens PGlite on disk twice in one test: on a busy two-core machine that can pass 30 s.
const timeout = 120_000;

let root: string;
let image: PgliteImage;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'portal-image-'));
  image = { tar: path.join(root, 'image.tar'), manifest: path.join(root, 'image.json') };
  // The global setup's migrated template is exactly what the build dumps; the PostgreSQL lane
  // has none, so the image is made here as make-pglite-image.ts makes it.
  const template = inject('pgliteTemplate');
  let dump: Blob;
  if (template) {
    dump = new Blob([await readFile(template)]);
  } else {
    const handle = await openDatabase({ kind: 'pglite', dataDir: null });
    await runMigrations(handle);
    dump = await handle.dumpDataDir!();
    await handle.close();
  }
  await writeImage(dump, await currentManifest(migrationsFolder), image);
}, timeout);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const unit = {
  name: 'Poradnia z obrazu',
  street: 'Łąkowa',
  building_nr: '1',
  postcode: '00-001',
  city: 'Łódź',
};

describe('first start from the build image', () => {
  it(
    'makes a normal data directory that keeps its data after a reopen without the image',
    { timeout },
    async () => {
      // A copy of the image, removed before the reopen.
      const own = { tar: path.join(root, 'own.tar'), manifest: path.join(root, 'own.json') };
      await copyFile(image.tar, own.tar);
      await copyFile(image.manifest, own.manifest);
      const dataDir = path.join(root, 'first', 'data'); // missing, its parent too
      const first = await openDatabase({ kind: 'pglite', dataDir, image: own });
      expect(first.image).toBe('unpacked');
      await runMigrations(first); // nothing left to apply
      await first.db.insert(units).values(unit);
      await first.close();
      // No staging directory is left beside it.
      expect(await readdir(path.dirname(dataDir))).toEqual(['data']);

      await rm(own.tar);
      await rm(own.manifest);
      const second = await openDatabase({ kind: 'pglite', dataDir, image: own });
      expect(second.image).toBe('not-empty');
      await runMigrations(second);
      const rows = await second.db.select({ name: units.name }).from(units);
      expect(rows).toEqual([{ name: unit.name }]);
      await second.close();
    },
  );

  it('starts from the image in an empty existing directory', { timeout }, async () => {
    const dataDir = path.join(root, 'empty');
    await mkdir(dataDir);
    expect(await unpackImage(dataDir, image, migrationsFolder)).toBe('unpacked');
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  });

  it('never writes into a directory that holds anything', async () => {
    const dataDir = path.join(root, 'not-empty');
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'notes.txt'), 'mine');
    expect(await unpackImage(dataDir, image, migrationsFolder)).toBe('not-empty');
    expect(await readdir(dataDir)).toEqual(['notes.txt']);
    expect(await readdir(root)).not.toContain(expect.stringMatching(/image-/));
  });

  it('ignores a missing image and leaves the directory as it was', async () => {
    const dataDir = path.join(root, 'no-image');
    const missing = { tar: path.join(root, 'none.tar'), manifest: path.join(root, 'none.json') };
    expect(await unpackImage(dataDir, missing, migrationsFolder)).toBe('missing');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('ignores an image whose migrations differ from the folder', async () => {
    const folder = path.join(root, 'migrations');
    await mkdir(path.join(folder, 'meta'), { recursive: true });
    const journal = JSON.parse(
      await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: { tag: string }[] };
    for (const { tag } of journal.entries) {
      const sql = await readFile(path.join(migrationsFolder, `${tag}.sql`), 'utf8');
      // The last migration edited after the image was made.
      const edited = tag === journal.entries.at(-1)?.tag ? `${sql}\n-- edited\n` : sql;
      await writeFile(path.join(folder, `${tag}.sql`), edited);
    }
    await writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
    const dataDir = path.join(root, 'stale');
    expect(await unpackImage(dataDir, image, folder)).toBe('stale');
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('imageFits', () => {
  const manifest: ImageManifest = {
    pglite: '0.5.16',
    migrations: [
      { tag: '0000_a', hash: 'a' },
      { tag: '0001_b', hash: 'b' },
    ],
  };

  it('takes an image of the same migrations, or of the first ones (newer ones run on top)', () => {
    expect(imageFits(manifest, manifest)).toBe(true);
    const newer = {
      ...manifest,
      migrations: [...manifest.migrations, { tag: '0002_c', hash: 'c' }],
    };
    expect(imageFits(manifest, newer)).toBe(true);
  });

  it('refuses an edited, removed or reordered migration, or another PGlite', () => {
    const [a, b] = manifest.migrations as [
      ImageManifest['migrations'][0],
      ImageManifest['migrations'][0],
    ];
    expect(imageFits(manifest, { ...manifest, migrations: [a, { ...b, hash: 'x' }] })).toBe(false);
    expect(imageFits(manifest, { ...manifest, migrations: [a] })).toBe(false);
    expect(imageFits(manifest, { ...manifest, migrations: [b, a] })).toBe(false);
    expect(imageFits(manifest, { ...manifest, pglite: '0.6.0' })).toBe(false);
  });
});

/** One ustar header block for `name`; the extractor needs no checksum. */
function header(name: string, size: number, type: '0' | '5'): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100, 'utf8');
  block.write('0000600\0', 100);
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  block.write(type, 156);
  block.write('ustar\0', 257);
  return block;
}

describe('extractTar', () => {
  it('unpacks directories and files', async () => {
    const target = path.join(root, 'tar-ok');
    const data = Buffer.from('15\n');
    const tar = Buffer.concat([
      header('/base/', 0, '5'),
      header('/base/PG_VERSION', data.length, '0'),
      Buffer.concat([data, Buffer.alloc(512 - data.length)]),
      Buffer.alloc(1024),
    ]);
    await extractTar(tar, target);
    expect(await readFile(path.join(target, 'base', 'PG_VERSION'), 'utf8')).toBe('15\n');
  });

  it('refuses a path outside the target and an entry that is not a file or directory', async () => {
    const target = path.join(root, 'tar-bad');
    await expect(
      extractTar(Buffer.concat([header('../escape', 0, '0'), Buffer.alloc(1024)]), target),
    ).rejects.toThrow(/outside/);
    expect(existsSync(path.join(root, 'escape'))).toBe(false);
    const link = header('/link', 0, '0');
    link.write('2', 156);
    await expect(extractTar(Buffer.concat([link, Buffer.alloc(1024)]), target)).rejects.toThrow(
      /tar type/,
    );
  });
});
