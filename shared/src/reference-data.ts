import { z } from 'zod';

/**
 * Reference data v1.0 (DESIGN §4, contract): what the toolbar and agents save into an idea folder.
 * Browser-safe: the toolbar validates with this before sending, the MCP tool before relaying, and
 * the native host before writing anything.
 */

export const REFERENCE_DATA_VERSION = '1.0';

/** A `base64:` screenshot value is decoded and written as a PNG file by the host. */
export const BASE64_PREFIX = 'base64:';

/** Longest idea folder name accepted, in UTF-8 bytes (NAME_MAX on common file systems). */
export const MAX_IDEA_FOLDER_BYTES = 255;

/**
 * Why `name` is not one plain folder name, or null when it is. Rejects anything that could leave
 * `x-ipe-docs/ideas/`: separators, `.`/`..`, absolute or drive-relative forms, NUL and other
 * control characters.
 */
export function ideaFolderProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.includes('\0')) return 'must not contain NUL';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'must not contain control characters';
  if (name.includes('/') || name.includes('\\')) return 'must be a single folder name (no "/" or "\\")';
  if (name === '.' || name === '..') return 'must not be "." or ".."';
  if (/^[A-Za-z]:/.test(name)) return 'must not be a drive path';
  if (name.trim() !== name) return 'must not start or end with whitespace';
  if (utf8Length(name) > MAX_IDEA_FOLDER_BYTES) return `must be at most ${MAX_IDEA_FOLDER_BYTES} bytes`;
  return null;
}

export const IdeaFolderName = z.string().superRefine((name, ctx) => {
  const problem = ideaFolderProblem(name);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: `idea_folder ${problem}` });
});

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const BASE64_HEAD = /^[A-Za-z0-9+/]{44}/;

/**
 * Cheap check of a `base64:` value: the first 33 bytes must be a PNG signature followed by an
 * IHDR chunk. The full strict decode happens in the host, which owns the bytes it writes.
 */
export function base64PngHeadProblem(value: string): string | null {
  const body = value.slice(BASE64_PREFIX.length);
  if (body.length === 0) return 'is empty after "base64:"';
  if (!BASE64_HEAD.test(body)) return 'is not a base64 PNG (too short or not base64)';
  const head = atob(body.slice(0, 44));
  for (let i = 0; i < PNG_SIGNATURE.length; i++) {
    if (head.charCodeAt(i) !== PNG_SIGNATURE[i]) return 'is not a PNG image (bad signature)';
  }
  if (head.slice(12, 16) !== 'IHDR') return 'is not a PNG image (no IHDR chunk)';
  return null;
}

/** A screenshot: a `base64:` PNG to be written by the host, a path kept as is, or null. */
export const ScreenshotValue = z
  .string()
  .min(1)
  .nullable()
  .superRefine((value, ctx) => {
    if (value === null || !value.startsWith(BASE64_PREFIX)) return;
    const problem = base64PngHeadProblem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `screenshot ${problem}` });
  });

const rgbPattern = /^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$/;
const hslPattern = /^\s*(\d{1,3}(?:\.\d+)?)\s*,\s*(\d{1,3}(?:\.\d+)?)%\s*,\s*(\d{1,3}(?:\.\d+)?)%\s*$/;

export const Rgb = z.string().refine(
  (value) => {
    const m = rgbPattern.exec(value);
    return m?.slice(1, 4).every((part) => Number(part) <= 255) === true;
  },
  { message: 'must be "r, g, b" with each part 0–255' },
);

export const Hsl = z.string().refine(
  (value) => {
    const m = hslPattern.exec(value);
    return m !== null && Number(m[1]) <= 360 && Number(m[2]) <= 100 && Number(m[3]) <= 100;
  },
  { message: 'must be "h, s%, l%" with h 0–360 and s, l 0–100' },
);

/** Unknown extra keys (e.g. the toolbar's computed styles) are kept, not dropped. */
export const Color = z.looseObject({
  id: z.string().regex(/^color-\d{3,}$/, 'must look like "color-001"'),
  hex: z
    .string()
    .regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'must be "#rgb" or "#rrggbb"'),
  rgb: Rgb.optional(),
  hsl: Hsl.optional(),
  source_selector: z.string().max(4096).optional(),
  context: z.string().max(65_536).optional(),
});
export type Color = z.infer<typeof Color>;

export const BoundingBox = z.looseObject({
  x: z.number().finite(),
  y: z.number().finite(),
  width: z.number().finite().nonnegative(),
  height: z.number().finite().nonnegative(),
});
export type BoundingBox = z.infer<typeof BoundingBox>;

/** Only these two kinds exist; any other key would bypass decoding, so it is refused. */
export const ElementScreenshots = z.strictObject({
  full_page: ScreenshotValue.optional(),
  element_crop: ScreenshotValue.optional(),
});
export type ElementScreenshots = z.infer<typeof ElementScreenshots>;

export const Element = z.looseObject({
  id: z.string().regex(/^elem-\d{3,}$/, 'must look like "elem-001"'),
  selector: z.string().min(1).max(4096),
  tag: z.string().min(1).max(100).optional(),
  bounding_box: BoundingBox.optional(),
  screenshots: ElementScreenshots.optional(),
  comment: z.string().max(65_536).nullable().optional(),
  extracted_assets: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
});
export type Element = z.infer<typeof Element>;

export const DesignTokens = z.record(z.string(), z.unknown());
export type DesignTokens = z.infer<typeof DesignTokens>;

const SECTIONS = ['colors', 'elements', 'design_tokens'] as const;

export const ReferenceDataShape = z.looseObject({
  version: z.literal(REFERENCE_DATA_VERSION, { message: `must be "${REFERENCE_DATA_VERSION}"` }),
  source_url: z.url({ message: 'must be an absolute URL' }),
  timestamp: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or an offset' }),
  idea_folder: IdeaFolderName,
  auth_url: z.url({ message: 'must be an absolute URL' }).nullable().optional(),
  /** Informational only: never used for numbering. */
  session_id: z
    .union([z.string().max(200), z.number()])
    .nullable()
    .optional(),
  colors: z.array(Color).optional(),
  elements: z.array(Element).optional(),
  design_tokens: DesignTokens.optional(),
});

/** The request: at least one data section must be present and non-empty. */
export const ReferenceData = ReferenceDataShape.superRefine((data, ctx) => {
  const hasData =
    (data.colors?.length ?? 0) > 0 ||
    (data.elements?.length ?? 0) > 0 ||
    Object.keys(data.design_tokens ?? {}).length > 0;
  if (!hasData) {
    ctx.addIssue({
      code: 'custom',
      message: `at least one of ${SECTIONS.join(', ')} must be present and non-empty`,
    });
  }
});
export type ReferenceData = z.infer<typeof ReferenceData>;
export type ReferenceDataInput = z.input<typeof ReferenceData>;

/** What a successful save returns. Paths are relative to the workspace, with `/` separators. */
export const SaveResult = z.object({
  status: z.literal('success'),
  session_file: z.string(),
  session_number: z.number().int().positive(),
  session_path: z.string(),
  screenshots: z.array(z.string()),
  reference_data_path: z.string(),
  idea_folder: z.string(),
  /** Absolute workspace the save went into (useful when the toolbar's workspace was implied). */
  workspace: z.string(),
});
export type SaveResult = z.infer<typeof SaveResult>;

/** One entry of the merged view's session list. */
export const MergedSession = z.object({
  session_number: z.number().int().positive(),
  file: z.string(),
  source_url: z.string(),
  timestamp: z.string(),
  session_id: z.union([z.string(), z.number()]).nullable().optional(),
});
export type MergedSession = z.infer<typeof MergedSession>;

/** `reference-data.json`: rebuilt from every session on each save. */
export const MergedReferenceData = z.object({
  version: z.literal(REFERENCE_DATA_VERSION),
  idea_folder: z.string(),
  last_updated: z.string(),
  source_urls: z.array(z.string()),
  sessions: z.array(MergedSession),
  /** Items as saved (older sessions may predate a field), so only the id is guaranteed. */
  colors: z.array(z.looseObject({ id: z.string() })),
  elements: z.array(z.looseObject({ id: z.string() })),
  design_tokens: DesignTokens,
});
export type MergedReferenceData = z.infer<typeof MergedReferenceData>;

function utf8Length(text: string): number {
  const buffer = (globalThis as { Buffer?: { byteLength(s: string): number } }).Buffer;
  return buffer ? buffer.byteLength(text) : new TextEncoder().encode(text).length;
}

/**
 * UTF-8 size of `JSON.stringify(value)` without building the string (a 10 MiB payload would cost
 * ~80 ms to serialise just to be measured). Exact, except control characters inside strings longer
 * than 4 KiB count as one byte instead of their `\uXXXX` escape.
 */
export function jsonByteLength(value: unknown): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'string':
      if (value.length < 4096 || value.includes('"') || value.includes('\\')) {
        return utf8Length(JSON.stringify(value));
      }
      return utf8Length(value) + 2;
    case 'number':
    case 'boolean':
      return String(JSON.stringify(value)).length;
    case 'object': {
      if (Array.isArray(value)) {
        let size = 2 + Math.max(0, value.length - 1);
        for (const item of value) {
          size += item === undefined || typeof item === 'function' ? 4 : jsonByteLength(item);
        }
        return size;
      }
      let size = 2;
      let count = 0;
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined || typeof item === 'function') continue;
        size += utf8Length(JSON.stringify(key)) + 1 + jsonByteLength(item);
        count++;
      }
      return size + Math.max(0, count - 1);
    }
    default:
      return 0;
  }
}
