// Minimal PNG encoder (RGBA, no filtering): real, decodable images for test pages and benchmark
// payloads, without a dependency. Plain ESM, shared by the test suites and bench/.
import zlib from 'node:zlib';

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}

/** `raw`: `height` rows of a filter byte (0) then `width` RGBA pixels. */
export function encodePng(width, height, raw, level = 6) {
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
  return encodePng(width, height, raw, 6);
}

/**
 * A photo-like image: soft colour fields (a sky, a horizon, a sun) with fine grain, deterministic
 * for a seed. Fine grain is what resampling shows, so a clone that scales it wrong is caught.
 */
export function photoPng(width, height, seed = 1) {
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height);
  let s = seed >>> 0 || 1;
  const rand = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0xffffffff;
  };
  const hue = (seed * 47) % 360;
  const sunX = width * (0.3 + (0.4 * ((seed * 13) % 10)) / 10);
  const sunY = height * 0.35;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const o = y * stride + 1 + x * 4;
      const t = y / height;
      const horizon = t > 0.62 ? 1 : 0;
      const d = Math.hypot(x - sunX, y - sunY) / Math.max(width, height);
      const sun = Math.max(0, 1 - d * 6);
      const grain = (rand() - 0.5) * 18;
      const base = horizon
        ? [40 + 30 * Math.sin(x / 37 + hue), 70 + 40 * t, 50]
        : [90 + 120 * t + (hue % 60), 120 + 60 * t, 200 - 80 * t];
      raw[o] = Math.max(0, Math.min(255, base[0] + 140 * sun + grain));
      raw[o + 1] = Math.max(0, Math.min(255, base[1] + 110 * sun + grain));
      raw[o + 2] = Math.max(0, Math.min(255, base[2] + 40 * sun + grain));
      raw[o + 3] = 255;
    }
  }
  return encodePng(width, height, raw, 6);
}
