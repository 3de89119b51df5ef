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

/**
 * A quick encoding: the diff image is read once, by a person, and is on the answer's path. Deflate
 * level 1 with one row filter (Sub, the cheapest that still predicts) instead of pngjs's default
 * of trying all five on every row: less than half the time of Paeth alone, for a few per cent more
 * bytes (docs/verify.md, Measured).
 */
export function encodeRgba(image: Rgba): Buffer {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return PNG.sync.write(png, { deflateLevel: 1, filterType: 1 });
}

/**
 * ssim.js's block-wise SSIM (Bezkrovny: the mean over non-overlapping windows, not a sliding one)
 * on the full-size luma. Its default (the sliding "weber" variant after the original MATLAB
 * downsampling, whose box filter is most of the cost) took 7–8 times as long on a 1280×800 area
 * and scores within a few thousandths of it; the known-answer tests (identical, flat greys,
 * shifted, recoloured) hold for both.
 */
const SSIM_OPTIONS = { ssim: 'bezkrovny', downsample: false } as const;

export interface PixelComparison {
  /** Share of pixels within the threshold (anti-aliased edges count as equal). */
  pixel: number;
  /** Mean SSIM (ssim.js's "bezkrovny" variant on the luminance it derives; see SSIM_OPTIONS). */
  ssim: number;
  /** The reference faded, differing pixels red: where to look. */
  diff: Rgba;
  differing: number;
}

export function compareImages(
  reference: Rgba,
  candidate: Rgba,
  lap: (name: string) => void = () => undefined,
): PixelComparison {
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
  lap('pixelmatch');
  const image = (i: Rgba) => ({
    width: i.width,
    height: i.height,
    data: new Uint8ClampedArray(i.data.buffer, i.data.byteOffset, i.data.byteLength),
  });
  const { mssim } = ssim(image(reference), image(candidate), SSIM_OPTIONS);
  lap('ssim');
  return {
    pixel: 1 - differing / (width * height),
    ssim: Math.max(0, Math.min(1, mssim)),
    diff: { width, height, data: diff },
    differing,
  };
}
