/**
 * Constants of the deep-capture wire shape, apart from its zod schema so that the in-page engine
 * can use them without bundling zod.
 */

export const AREA_CAPTURE_VERSION = 1;

/** Caps that keep one capture bounded whatever the page does. */
export const AREA_CAPTURE_LIMITS = {
  nodes: 6000,
  textRun: 20_000,
  /** Large only because a background may be a data: URL; the clone moves those to files. */
  styleValue: 2 * 1024 * 1024,
  svgMarkup: 512 * 1024,
  dataUrl: 8 * 1024 * 1024,
} as const;
