// Minimal PNG encoder (RGBA, no filtering) for benchmark payloads: real, decodable images.
import zlib from 'node:zlib';

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}

/** A noisy RGBA image of about `bytes` bytes (noise does not compress, so size ≈ pixels × 4). */
export function noisePng(bytes, seed = 1) {
  const width = 512;
  const height = Math.max(1, Math.ceil(bytes / (width * 4 + 1)));
  const raw = Buffer.alloc((width * 4 + 1) * height);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < raw.length; i += 1) {
    if (i % (width * 4 + 1) === 0) {
      raw[i] = 0;
      continue;
    }
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    raw[i] = s & 0xff;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
