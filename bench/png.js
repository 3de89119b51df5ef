// Benchmark payloads: real, decodable PNGs (the encoder is shared with the test pages).
import { encodePng, gradientPng } from '../test/support/png.js';

export { gradientPng };

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
  return encodePng(width, height, raw, 0);
}
