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

function encode(width, height, raw, level) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An opaque two-axis colour gradient: easy to recognise in a screenshot, cheap to compress. */
export function gradientPng(width, height) {
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const o = y * stride + 1 + x * 4;
      raw[o] = Math.round((255 * x) / Math.max(1, width - 1));
      raw[o + 1] = Math.round((255 * y) / Math.max(1, height - 1));
      raw[o + 2] = 160;
      raw[o + 3] = 255;
    }
  }
  return encode(width, height, raw, 6);
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
  return encode(width, height, raw, 0);
}
