import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extensionZipEntries, packageExtension } from './package-extension.js';
import { createZip } from './zip.js';

/**
 * CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) one bit at a time: slow, obviously the
 * definition, and shares nothing with zlib's table-driven code that the writer uses.
 */
function bitwiseCrc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Reads a zip through its central directory, the way unzip and the Web Store do. */
function readZip(zip: Buffer): Map<string, Buffer> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    expect(zip.readUInt32LE(p)).toBe(0x02014b50);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const csize = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const body = zip.subarray(start, start + csize);
    const data = method === 8 ? inflateRawSync(body) : Buffer.from(body);
    expect(bitwiseCrc32(data)).toBe(crc);
    files.set(name, data);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return files;
}

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xzip-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('createZip', () => {
  it('stores the standard CRC-32 of each entry (checked bit by bit, not with zlib)', () => {
    // The published check value of CRC-32 (the "123456789" test vector).
    expect(bitwiseCrc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    const random = Buffer.from(Array.from({ length: 4099 }, (_, i) => (i * 7919 + (i >> 3)) & 0xff));
    expect(crc32(random)).toBe(bitwiseCrc32(random));
    const entries = [
      { name: 'check.txt', data: Buffer.from('123456789') },
      { name: 'random.bin', data: random },
      { name: 'empty', data: Buffer.alloc(0) },
    ];
    const zip = createZip(entries);
    // Local headers carry the CRC at offset 14; each must be the definition's.
    let p = 0;
    for (const entry of entries) {
      expect(zip.readUInt32LE(p)).toBe(0x04034b50);
      expect(zip.readUInt32LE(p + 14)).toBe(bitwiseCrc32(entry.data));
      p += 30 + zip.readUInt16LE(p + 26) + zip.readUInt32LE(p + 18);
    }
    expect(readZip(zip).get('check.txt')?.toString()).toBe('123456789');
  });

  it('round-trips stored and deflated entries with UTF-8 names, reproducibly', () => {
    const entries = [
      { name: 'a.txt', data: Buffer.from('x'.repeat(10_000)) },
      { name: 'dir/ü.bin', data: Buffer.from([1, 2, 3]) },
      { name: 'empty', data: Buffer.alloc(0) },
    ];
    const zip = createZip(entries);
    const files = readZip(zip);
    for (const e of entries) expect(files.get(e.name)).toEqual(e.data);
    expect(zip.length).toBeLessThan(1_000);
    expect(createZip(entries)).toEqual(zip);
  });

  it.each(['../x', '/abs', 'a\\b', ''])('refuses the unsafe name %j', (name) => {
    expect(() => createZip([{ name, data: Buffer.alloc(1) }])).toThrow(/invalid zip entry/);
  });

  it('is readable by unzip when it is installed', () => {
    let hasUnzip = true;
    try {
      execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    } catch {
      hasUnzip = false;
    }
    if (!hasUnzip) return;
    const file = path.join(tmp, 't.zip');
    fs.writeFileSync(file, createZip([{ name: 'd/f.txt', data: Buffer.from('hello '.repeat(100)) }]));
    expect(execFileSync('unzip', ['-p', file, 'd/f.txt']).toString()).toBe('hello '.repeat(100));
  });
});

describe('packageExtension', () => {
  it('zips dist/extension without the manifest key and without dot-folders', () => {
    const ext = path.join(tmp, 'dist', 'extension');
    fs.mkdirSync(path.join(ext, 'assets'), { recursive: true });
    fs.mkdirSync(path.join(ext, '.vite'), { recursive: true });
    fs.writeFileSync(
      path.join(ext, 'manifest.json'),
      JSON.stringify({ name: 'X', version: '1.2.3', key: 'SECRET' }),
    );
    fs.writeFileSync(path.join(ext, 'assets', 'sw.js'), 'console.log(1)');
    fs.writeFileSync(path.join(ext, '.vite', 'manifest.json'), '{}');
    fs.writeFileSync(
      path.join(tmp, 'package.json'),
      JSON.stringify({ name: 'x-ipe-uiux-reference', version: '9.9.9' }),
    );
    const result = packageExtension(tmp);
    expect(result.file).toBe(path.join(tmp, 'dist', 'x-ipe-uiux-reference-9.9.9.zip'));
    const files = readZip(fs.readFileSync(result.file));
    expect([...files.keys()]).toEqual(['assets/sw.js', 'manifest.json']);
    expect(JSON.parse(files.get('manifest.json')?.toString() ?? '')).toEqual({ name: 'X', version: '1.2.3' });
  });

  it('says to build first when dist/extension is missing', () => {
    expect(() => extensionZipEntries(path.join(tmp, 'nope'))).toThrow(/npm run build/);
  });
});
