import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pngSize, readPngHeader } from './png-header.js';

/** A minimal valid PNG (1-bit grey, all zero) of the given size, built by hand. */
function png(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

describe('pngSize', () => {
  it('reads width and height from the header', () => {
    expect(pngSize(png(1280, 800))).toEqual({ width: 1280, height: 800 });
    expect(pngSize(png(3, 70_000))).toEqual({ width: 3, height: 70_000 });
  });

  it('reads from a view into a larger buffer', () => {
    const bytes = png(17, 9);
    const padded = new Uint8Array(bytes.length + 5);
    padded.set(bytes, 5);
    expect(pngSize(padded.subarray(5))).toEqual({ width: 17, height: 9 });
  });

  it('refuses what is not a PNG header', () => {
    expect(pngSize(new Uint8Array(0))).toBeNull();
    expect(pngSize(png(4, 4).subarray(0, 20))).toBeNull();
    const jpeg = png(4, 4);
    jpeg[0] = 0xff;
    expect(pngSize(jpeg)).toBeNull();
    const noIhdr = png(4, 4);
    noIhdr[12] = 0x58;
    expect(pngSize(noIhdr)).toBeNull();
    expect(pngSize(png(0, 4))).toBeNull();
  });

  it('says why bytes are not a PNG', () => {
    expect(readPngHeader(png(5, 6))).toEqual({ ok: true, width: 5, height: 6 });
    expect(readPngHeader(png(5, 6).subarray(0, 23))).toEqual({ ok: false, problem: 'too short' });
    expect(readPngHeader(new Uint8Array(40))).toEqual({ ok: false, problem: 'bad signature' });
    const wrongLength = png(5, 6);
    wrongLength[11] = 12; // IHDR must hold 13 bytes
    expect(readPngHeader(wrongLength)).toEqual({ ok: false, problem: 'no IHDR chunk' });
    expect(readPngHeader(png(5, 0))).toEqual({ ok: false, problem: 'zero size' });
  });
});
