import { createReadStream, createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { once } from 'node:events';

/**
 * A backup is a plain POSIX tar (ustar) of a few regular files, so that an operator can look
 * into it with `tar tvf` and extract it by hand (ADR 058). Only what the backup writes is
 * supported: regular files, names under 100 bytes, sizes under 8 GiB.
 */
const BLOCK = 512;

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) >= 100) throw new Error(`archive entry name too long: ${name}`);
  const block = Buffer.alloc(BLOCK);
  const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, '0') + '\0';
  block.write(name, 0, 'utf8');
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii'); // the checksum field counts as spaces while summing
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return block;
}

export type ArchiveEntry = { name: string } & ({ path: string } | { content: Buffer });

/** Writes the entries, in order, into a new tar file at `target` (never overwrites). */
export async function writeArchive(target: string, entries: ArchiveEntry[]): Promise<void> {
  const out = createWriteStream(target, { flags: 'wx' });
  const write = async (chunk: Buffer) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  try {
    for (const entry of entries) {
      const size = 'path' in entry ? (await stat(entry.path)).size : entry.content.length;
      await write(header(entry.name, size, new Date()));
      if ('path' in entry) {
        for await (const chunk of createReadStream(entry.path)) await write(chunk as Buffer);
      } else {
        await write(entry.content);
      }
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      if (pad > 0) await write(Buffer.alloc(pad));
    }
    await write(Buffer.alloc(BLOCK * 2));
  } finally {
    out.end();
    await once(out, 'close');
  }
}

export interface ArchiveMember {
  name: string;
  /** Byte offset of the content in the archive. */
  offset: number;
  size: number;
}

/** Lists the regular files of a tar written by writeArchive (or by tar(1) with plain files). */
export async function listArchive(file: string): Promise<ArchiveMember[]> {
  const handle = await open(file, 'r');
  try {
    const { size: total } = await handle.stat();
    const members: ArchiveMember[] = [];
    const block = Buffer.alloc(BLOCK);
    let position = 0;
    while (position + BLOCK <= total) {
      await handle.read(block, 0, BLOCK, position);
      if (block.every((byte) => byte === 0)) break;
      const name = block.toString('utf8', 0, 100).replace(/\0.*$/s, '');
      const size = parseInt(block.toString('ascii', 124, 136).replace(/\0.*$/s, '').trim(), 8);
      if (!Number.isFinite(size) || size < 0) throw new Error('not a backup archive (bad header)');
      const type = block.toString('ascii', 156, 157);
      if (type === '0' || type === '\0') members.push({ name, offset: position + BLOCK, size });
      position += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    }
    return members;
  } finally {
    await handle.close();
  }
}

/** Copies one member out of the archive into `target`. */
export async function extractMember(file: string, member: ArchiveMember, target: string) {
  const out = createWriteStream(target, { flags: 'wx' });
  if (member.size > 0) {
    const input = createReadStream(file, {
      start: member.offset,
      end: member.offset + member.size - 1,
    });
    input.pipe(out);
    await once(out, 'close');
  } else {
    out.end();
    await once(out, 'close');
  }
}

/** Reads one (small) member into memory. */
export async function readMember(file: string, member: ArchiveMember): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(member.size);
    await handle.read(buffer, 0, member.size, member.offset);
    return buffer;
  } finally {
    await handle.close();
  }
}
