import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { ssim } from 'ssim.js';

/**
 * The image side of a comparison, with the libraries the field uses: pixelmatch (YIQ distance with
 * anti-aliasing detection) for the pixel score and the diff heat map, ssim.js for SSIM, pngjs to
 * decode and encode. Both images are the same size: the extension draws the candidate at the
 * reference's pixel size.
 */

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** pixelmatch's threshold: differences a person would not see on a screen are within it. */
export const PIXEL_THRESHOLD = 0.1;

export function decodeRgba(png: Buffer): Rgba {
  const image = PNG.sync.read(png);
  return { width: image.width, height: image.height, data: new Uint8Array(image.data) };
}

/** A quick encoding (deflate level 1): the diff image is read once, by a person, and is on the answer's path. */
export function encodeRgba(image: Rgba): Buffer {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return PNG.sync.write(png, { deflateLevel: 1 });
}

export interface PixelComparison {
  /** Share of pixels within the threshold (anti-aliased edges count as equal). */
  pixel: number;
  /** Mean SSIM (ssim.js, its default "weber" variant on the luminance it derives). */
  ssim: number;
  /** The reference faded, differing pixels red: where to look. */
  diff: Rgba;
  differing: number;
}

export function compareImages(reference: Rgba, candidate: Rgba): PixelComparison {
  if (reference.width !== candidate.width || reference.height !== candidate.height)
    throw new Error(
      `images differ in size: reference ${reference.width}×${reference.height}, candidate ${candidate.width}×${candidate.height}`,
    );
  const { width, height } = reference;
  const diff = new Uint8Array(width * height * 4);
  const differing = pixelmatch(reference.data, candidate.data, diff, width, height, {
    threshold: PIXEL_THRESHOLD,
    alpha: 0.25,
    diffColor: [230, 0, 40],
    aaColor: [255, 200, 0],
  });
  const image = (i: Rgba) => ({
    width: i.width,
    height: i.height,
    data: new Uint8ClampedArray(i.data.buffer, i.data.byteOffset, i.data.byteLength),
  });
  const { mssim } = ssim(image(reference), image(candidate));
  return {
    pixel: 1 - differing / (width * height),
    ssim: Math.max(0, Math.min(1, mssim)),
    diff: { width, height, data: diff },
    differing,
  };
}
