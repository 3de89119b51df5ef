import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A minimal, deterministic ZIP writer (PKZIP 2.0: deflate or store, UTF-8 names, no zip64) — all
 * the Chrome Web Store needs, without shipping a zip binary or a dependency. Every entry gets the
 * same timestamp so the same input gives the same bytes. CRC-32 is zlib's (`zlib.crc32`, Node ≥ 20.15).
 */

export interface ZipEntry {
  /** Forward-slash path inside the archive. */
  name: string;
  data: Buffer;
  /** Unix permission bits (default 0644). */
  mode?: number;
}

/** 1980-01-01 00:00, the DOS epoch: fixed so archives are reproducible. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const UTF8_FLAG = 0x0800;
const MAX_32 = 0xffffffff;

export function createZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const names = new Set<string>();
  for (const entry of entries) {
    if (
      entry.name === '' ||
      entry.name.startsWith('/') ||
      entry.name.split('/').includes('..') ||
      entry.name.includes('\\')
    ) {
      throw new Error(`invalid zip entry name: ${entry.name}`);
    }
    if (names.has(entry.name)) throw new Error(`duplicate zip entry: ${entry.name}`);
    names.add(entry.name);
    const name = Buffer.from(entry.name, 'utf8');
    const deflated = deflateRawSync(entry.data, { level: 9 });
    const stored = deflated.length >= entry.data.length;
    const body = stored ? entry.data : deflated;
    const crc = crc32(entry.data);
    if (entry.data.length > MAX_32 || offset > MAX_32)
      throw new Error('archive too large for zip without zip64');

    // Local header and central directory entry share the fields from "version needed" to the
    // name length; the central one has "version made by" first, so they start 2 bytes later.
    const shared = { method: stored ? 0 : 8, crc, compressed: body.length, size: entry.data.length, name };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, shared);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, spec 2.0
    writeEntryFields(central, 6, shared);
    central.writeUInt32LE((((entry.mode ?? 0o644) | 0o100000) << 16) >>> 0, 38); // regular file
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const centralDir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDir, end]);
}

interface EntryFields {
  method: number;
  crc: number;
  compressed: number;
  size: number;
  name: Buffer;
}

function writeEntryFields(header: Buffer, at: number, f: EntryFields): void {
  header.writeUInt16LE(20, at); // version needed: 2.0
  header.writeUInt16LE(UTF8_FLAG, at + 2);
  header.writeUInt16LE(f.method, at + 4);
  header.writeUInt16LE(DOS_TIME, at + 6);
  header.writeUInt16LE(DOS_DATE, at + 8);
  header.writeUInt32LE(f.crc, at + 10);
  header.writeUInt32LE(f.compressed, at + 14);
  header.writeUInt32LE(f.size, at + 18);
  header.writeUInt16LE(f.name.length, at + 22);
}
