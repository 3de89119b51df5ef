import { composite, contrastRatio, type Rgba } from './color.js';

/**
 * Colours from captured pixels, not from CSS (colour mode without the EyeDropper): the CSS
 * background of an element says nothing about a photo, a gradient, a background image or a
 * colour painted inside a shadow root. Pure functions over RGBA rows as a canvas gives them, and
 * `decodePixels` to get those rows from a capture.
 */
export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Uint8ClampedArray;
}

/** The pixel at (x, y), clamped to the image. */
export function pixelAt(img: Pixels, x: number, y: number): Rgba {
  const cx = Math.min(img.width - 1, Math.max(0, Math.floor(x)));
  const cy = Math.min(img.height - 1, Math.max(0, Math.floor(y)));
  const i = (cy * img.width + cx) * 4;
  return { r: img.data[i] ?? 0, g: img.data[i + 1] ?? 0, b: img.data[i + 2] ?? 0, a: 1 };
}

/** Largest channel difference: how far apart two colours look, cheaply. */
function distance(a: Rgba, b: Rgba): number {
  return Math.max(Math.abs(a.r - b.r), Math.abs(a.g - b.g), Math.abs(a.b - b.b));
}

/** `text` painted over `bg`, in whole channel values as a screen shows it. */
function paint(text: Rgba, bg: Rgba): Rgba {
  if (text.a >= 1) return { ...text, a: 1 };
  const c = composite(text, bg);
  return { r: Math.round(c.r), g: Math.round(c.g), b: Math.round(c.b), a: 1 };
}

/** Pixels that far from the text colour are what is behind the text (glyphs and their edges are nearer). */
const BACKGROUND_DISTANCE = 64;
/** The contrast reported: of the worst 10 % of the background (a rating must hold where it is darkest). */
const WORST_SHARE = 0.1;

/**
 * The contrast of text painted in `text` (CSS colour; alpha composited over what is behind it)
 * against the pixels behind it, read from a capture of the text's box: the pixels clearly apart
 * from the text colour are the background, and the ratio is the one the worst 10 % of them reach.
 * Returns the text colour as painted, and null when no pixel differs from it (nothing to rate).
 */
export function textContrast(img: Pixels, text: Rgba): { text: Rgba; ratio: number } | null {
  const n = img.width * img.height;
  const step = Math.max(1, Math.floor(n / 40_000));
  const behind: Rgba[] = [];
  for (let p = 0; p < n; p += step) {
    const px = { r: img.data[p * 4] ?? 0, g: img.data[p * 4 + 1] ?? 0, b: img.data[p * 4 + 2] ?? 0, a: 1 };
    // Semi-transparent text looks different over every pixel: compare with it painted there.
    if (distance(px, paint(text, px)) >= BACKGROUND_DISTANCE) behind.push(px);
  }
  if (behind.length === 0) return null;
  const rated = behind
    .map((bg) => ({ bg, ratio: contrastRatio(paint(text, bg), bg) }))
    .sort((a, b) => a.ratio - b.ratio);
  const worst = rated[Math.floor((rated.length - 1) * WORST_SHARE)] ?? rated[0];
  if (!worst) return null;
  return { text: paint(text, worst.bg), ratio: worst.ratio };
}

/** RGBA of a PNG data URL, bytes as captured (no colour conversion). */
export async function decodePixels(dataUrl: string): Promise<Pixels> {
  const bytes = Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }), {
    colorSpaceConversion: 'none',
    premultiplyAlpha: 'none',
  });
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('No 2D canvas to read the pixels with.');
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    return { width: bitmap.width, height: bitmap.height, data };
  } finally {
    bitmap.close();
  }
}
