// PNG helpers in plain Node for fixture pages, benchmark payloads and pixel comparisons outside
// the browser; pngjs (the host's codec) encodes and decodes.
import pngjs from 'pngjs';

const { PNG } = pngjs;

/** Encodes RGBA pixels (width × height × 4 bytes) as a PNG, unfiltered, at zlib `level`. */
export function encodePng(width, height, rgba, level = 6) {
  const png = new PNG({ width, height });
  png.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  return PNG.sync.write(png, { deflateLevel: level, filterType: 0 });
}

/** Decodes a PNG into { width, height, data: RGBA Buffer }. */
export function decodePng(png) {
  const { width, height, data } = PNG.sync.read(png);
  return { width, height, data };
}

/** Width and height from the IHDR chunk. */
export function pngSize(png) {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The RGB of one pixel of a decoded image. */
export function pixelAt(image, x, y) {
  const i = (y * image.width + x) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2]];
}

/**
 * Compares `image` (its first `rows` rows, all by default) with the region of `reference` at
 * (x, y): the fraction of pixels in which a channel differs by more than `tolerance`, and the rows
 * where most pixels differ.
 */
export function compareImages(image, reference, { x = 0, y = 0, tolerance = 8, rows = image.height } = {}) {
  let bad = 0;
  const badRows = [];
  const height = Math.min(rows, image.height);
  for (let j = 0; j < height; j += 1) {
    let rowBad = 0;
    for (let i = 0; i < image.width; i += 1) {
      const a = (j * image.width + i) * 4;
      const rx = x + i;
      const ry = y + j;
      if (rx >= reference.width || ry >= reference.height) {
        rowBad += 1;
        continue;
      }
      const b = (ry * reference.width + rx) * 4;
      if (
        Math.abs(image.data[a] - reference.data[b]) > tolerance ||
        Math.abs(image.data[a + 1] - reference.data[b + 1]) > tolerance ||
        Math.abs(image.data[a + 2] - reference.data[b + 2]) > tolerance
      )
        rowBad += 1;
    }
    bad += rowBad;
    if (rowBad > image.width / 2) badRows.push(j);
  }
  return { mismatch: bad / (image.width * height), badRows };
}

/** An opaque two-axis colour gradient: easy to recognise in a screenshot, cheap to compress. */
export function gradientPng(width, height) {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const o = (y * width + x) * 4;
      rgba[o] = Math.round((255 * x) / Math.max(1, width - 1));
      rgba[o + 1] = Math.round((255 * y) / Math.max(1, height - 1));
      rgba[o + 2] = 160;
      rgba[o + 3] = 255;
    }
  }
  return encodePng(width, height, rgba);
}

/** A noisy RGBA image of about `bytes` bytes (noise does not compress, so size ≈ pixels × 4). */
export function noisePng(bytes, seed = 1) {
  const width = 512;
  const height = Math.max(1, Math.ceil(bytes / (width * 4 + 1)));
  const rgba = Buffer.alloc(width * 4 * height);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < rgba.length; i += 1) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    rgba[i] = s & 0xff;
  }
  return encodePng(width, height, rgba, 0);
}

/**
 * A deterministic stand-in for a photograph: a sky gradient, two mountain ridges, a warm ground,
 * soft light blobs and film grain, so neighbouring pixels differ as in a real photo (no CSS colour
 * describes it) and a screenshot of it encodes as large as one of a real photo. Same seed, same
 * bytes.
 */
export function photoPng(width, height, seed = 1) {
  let s = (seed * 2654435761) >>> 0 || 1;
  const rand = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  const phase = [rand() * 6.28, rand() * 6.28, rand() * 6.28, rand() * 6.28];
  const blobs = Array.from({ length: 5 }, () => ({
    x: rand() * width,
    y: rand() * height * 0.6,
    r: (0.08 + rand() * 0.2) * width,
    k: 20 + rand() * 40,
  }));
  const hue = rand();
  // Per-column and per-row terms, so the per-pixel work is a few additions.
  const ridge1 = new Float64Array(width);
  const ridge2 = new Float64Array(width);
  const sx40 = new Float64Array(width);
  const cx40 = new Float64Array(width);
  const sx33 = new Float64Array(width);
  const cx33 = new Float64Array(width);
  for (let x = 0; x < width; x += 1) {
    const u = x / width;
    ridge1[x] = 0.45 + 0.08 * Math.sin(u * 9 + phase[0]) + 0.04 * Math.sin(u * 23 + phase[1]);
    ridge2[x] = 0.62 + 0.05 * Math.sin(u * 5 + phase[2]) + 0.03 * Math.sin(u * 31 + phase[3]);
    sx40[x] = Math.sin(u * 40);
    cx40[x] = Math.cos(u * 40);
    sx33[x] = Math.sin(u * 33);
    cx33[x] = Math.cos(u * 33);
  }
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    const v = y / height;
    const sy17 = Math.sin(v * 17);
    const cy17 = Math.cos(v * 17);
    const sy11 = Math.sin(-v * 11);
    const cy11 = Math.cos(-v * 11);
    for (let x = 0; x < width; x += 1) {
      const r1 = ridge1[x];
      const r2 = ridge2[x];
      let r;
      let g;
      let b;
      if (v < r1) {
        // sky: blue at the top to a warm haze at the horizon
        const t = v / r1;
        r = 70 + 150 * t + 30 * hue;
        g = 110 + 90 * t;
        b = 190 - 40 * t;
      } else if (v < r2) {
        const t = (v - r1) / (r2 - r1);
        r = 60 + 30 * t;
        g = 70 + 20 * t - 20 * hue;
        b = 90 - 20 * t;
      } else {
        const t = (v - r2) / (1 - r2);
        r = 120 - 60 * t + 20 * (sx40[x] * cy17 + cx40[x] * sy17);
        g = 95 - 45 * t + 15 * (sx33[x] * cy11 + cx33[x] * sy11);
        b = 60 - 30 * t;
      }
      for (const blob of blobs) {
        const dx = x - blob.x;
        const dy = y - blob.y;
        const d2 = (dx * dx + dy * dy) / (blob.r * blob.r);
        if (d2 < 1) {
          const w = (1 - d2) * blob.k;
          r += w;
          g += w * 0.8;
          b += w * 0.5;
        }
      }
      const grain = (rand() - 0.5) * 14;
      const o = (y * width + x) * 4;
      rgba[o] = Math.max(0, Math.min(255, Math.round(r + grain)));
      rgba[o + 1] = Math.max(0, Math.min(255, Math.round(g + grain)));
      rgba[o + 2] = Math.max(0, Math.min(255, Math.round(b + grain)));
      rgba[o + 3] = 255;
    }
  }
  return encodePng(width, height, rgba, 3);
}
