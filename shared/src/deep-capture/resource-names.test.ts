import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHashName, sniffResource } from './resource-names.js';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

describe('sniffResource', () => {
  it('recognises images and fonts by their first bytes', () => {
    const cases: [Uint8Array, string][] = [
      [bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest'), 'png'],
      [bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'), 'jpg'],
      [bytes('GIF89a....'), 'gif'],
      [bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'webp'],
      [bytes([0, 0, 0, 0x1c], 'ftypavif', [0, 0, 0, 0]), 'avif'],
      [bytes('wOF2', [0, 1, 0, 0]), 'woff2'],
      [bytes('wOFF', [0, 1, 0, 0]), 'woff'],
      [bytes('OTTO', [0, 9]), 'otf'],
      [bytes([0, 1, 0, 0, 0, 0x10]), 'ttf'],
    ];
    for (const [input, ext] of cases) expect(sniffResource(input)?.ext, ext).toBe(ext);
  });

  it('recognises SVG after a BOM, an XML declaration, comments and a doctype', () => {
    const svg =
      '\uFEFF<?xml version="1.0"?>\n<!-- icon -->\n<!DOCTYPE svg>\n<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(sniffResource(new TextEncoder().encode(svg))).toEqual({
      mime: 'image/svg+xml',
      ext: 'svg',
      kind: 'svg',
    });
  });

  it('refuses what is not an image or a font, whatever the URL said', () => {
    for (const text of ['<!doctype html><html>', '<script>alert(1)</script>', 'body { color: red }', '']) {
      expect(sniffResource(new TextEncoder().encode(text)), text).toBeNull();
    }
    expect(sniffResource(new TextEncoder().encode('<html><svg></svg></html>'))).toBeNull();
  });
});

describe('contentHashName', () => {
  it('names a file by the SHA-256 of its bytes and its real type', async () => {
    const data = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'pixels');
    const sniffed = sniffResource(data);
    if (sniffed === null) throw new Error('not sniffed');
    const expected = createHash('sha256').update(data).digest('hex').slice(0, 20);
    expect(await contentHashName(data, sniffed)).toBe(`${expected}.png`);
  });

  it('gives identical bytes one name and different bytes different names', async () => {
    const a = bytes('wOF2', [1, 2, 3]);
    const b = bytes('wOF2', [1, 2, 4]);
    const sniffed = { mime: 'font/woff2', ext: 'woff2', kind: 'font' as const };
    expect(await contentHashName(a, sniffed)).toBe(await contentHashName(bytes('wOF2', [1, 2, 3]), sniffed));
    expect(await contentHashName(a, sniffed)).not.toBe(await contentHashName(b, sniffed));
  });
});
