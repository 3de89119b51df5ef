import { z } from 'zod';
import { AreaElementShape, ElementResourceShape } from './deep-capture/referenced-elements.js';
import { HtmlCssShape } from './deep-capture/saved-areas.js';
import { readPngHeader } from './png-header.js';

/**
 * Reference data (a contract: docs/architecture.md, The idea store): what the toolbar and agents save into an idea folder.
 * Browser-safe: the toolbar validates with this before sending, the MCP tool and `x-ipe-uiux save`
 * before saving or relaying, and the store before writing anything.
 *
 * Real producers are lenient writers, so the schema is a lenient reader where it costs nothing:
 * - null means absent for every optional field at every level (the original's producers send
 *   `extracted_assets: null`, `design_tokens: null`, `comment: null`, `auth_url: null`);
 * - unknown keys are kept at every level (`html_css`, `instruction`, `agent_analysis`, ...), except
 *   that a `base64:` image is only ever accepted where the store decodes it;
 * - versions 1.0, 2.0 (theme saves: colours with a `role`) and 3.0 are accepted and saved as
 *   sessions (3.0 may carry `areas`).
 * Messages set on these schemas are expectations ("an id like …"): see validation-issues.ts.
 */

/** Versions accepted by a save. */
export const REFERENCE_DATA_VERSIONS = ['1.0', '2.0', '3.0'] as const;
export type ReferenceDataVersion = (typeof REFERENCE_DATA_VERSIONS)[number];

/** Version of the merged view `reference-data.json` (its own format, whatever the sessions' versions). */
export const REFERENCE_DATA_VERSION = '1.0';

/** A `base64:` screenshot value is decoded and written as a PNG file by the store. */
export const BASE64_PREFIX = 'base64:';

/** Longest idea folder name accepted, in UTF-8 bytes (NAME_MAX on common file systems). */
export const MAX_IDEA_FOLDER_BYTES = 255;

/**
 * What `name` misses to be one plain folder name, phrased as an expectation ("a folder name
 * without …"), or null when it is one. Refuses anything that could leave `x-ipe-docs/ideas/`:
 * separators, `.`/`..`, absolute or drive-relative forms, NUL and other control characters.
 */
export function ideaFolderProblem(name: string): string | null {
  if (name.length === 0) return 'a non-empty folder name';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a folder name without NUL or other control characters';
  if (name.includes('/') || name.includes('\\')) return 'a single folder name, without "/" or "\\"';
  if (name === '.' || name === '..') return 'a folder name other than "." or ".."';
  if (/^[A-Za-z]:/.test(name)) return 'a folder name, not a drive path';
  if (name.trim() !== name) return 'a folder name without leading or trailing whitespace';
  if (utf8Length(name) > MAX_IDEA_FOLDER_BYTES)
    return `a folder name of at most ${MAX_IDEA_FOLDER_BYTES} UTF-8 bytes`;
  return null;
}

export const IdeaFolderName = z
  .string({ error: 'an idea folder name (a string)' })
  .superRefine((name, ctx) => {
    const problem = ideaFolderProblem(name);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** 44 base64 characters: the 33 bytes of a PNG's signature and whole IHDR chunk. */
const BASE64_HEAD = /^[A-Za-z0-9+/]{44}/;

/**
 * Cheap check of a `base64:` value: the first 33 bytes must be a PNG signature followed by an
 * IHDR chunk. The full strict decode happens in the store, which owns the bytes it writes.
 * Returns the expectation missed, or null.
 */
export function base64PngHeadProblem(value: string): string | null {
  const body = value.slice(BASE64_PREFIX.length);
  if (body.length === 0) return 'a base64 PNG after "base64:" (it is empty)';
  if (!BASE64_HEAD.test(body)) return 'a base64 PNG after "base64:" (too short or not base64)';
  const header = readPngHeader(Uint8Array.from(atob(body.slice(0, 44)), (c) => c.charCodeAt(0)));
  return header.ok ? null : `a PNG image after "base64:" (${header.problem})`;
}

const isBase64Image = (value: unknown): boolean =>
  typeof value === 'string' && value.startsWith(BASE64_PREFIX);

/** A screenshot: a `base64:` PNG to be written by the store, a path kept as is, or null/absent. */
export const ScreenshotValue = z
  .string({ error: 'a "base64:<PNG>" value, a file path or null' })
  .min(1, 'a "base64:<PNG>" value, a file path or null (not an empty string)')
  .superRefine((value, ctx) => {
    if (!value.startsWith(BASE64_PREFIX)) return;
    const problem = base64PngHeadProblem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .nullish();

/** A string kept as a path: a `base64:` image here would never be decoded, so it is refused. */
const PathOnly = (where: string) =>
  z
    .string({ error: 'a file path or null' })
    .refine(
      (value) => !isBase64Image(value),
      `a file path or null (base64: images are decoded only ${where})`,
    )
    .nullish();

const rgbPattern = /^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$/;
const hslPattern = /^\s*(\d{1,3}(?:\.\d+)?)\s*,\s*(\d{1,3}(?:\.\d+)?)%\s*,\s*(\d{1,3}(?:\.\d+)?)%\s*$/;

export const Rgb = z.string({ error: '"r, g, b" (a string)' }).refine((value) => {
  const m = rgbPattern.exec(value);
  return m?.slice(1, 4).every((part) => Number(part) <= 255) === true;
}, '"r, g, b" with each part 0–255');

export const Hsl = z.string({ error: '"h, s%, l%" (a string)' }).refine((value) => {
  const m = hslPattern.exec(value);
  return m !== null && Number(m[1]) <= 360 && Number(m[2]) <= 100 && Number(m[3]) <= 100;
}, '"h, s%, l%" with h 0–360 and s, l 0–100');

const text = (max: number) =>
  z.string({ error: 'a string' }).max(max, `a string of at most ${max} characters`).nullish();

/** Unknown extra keys (e.g. the toolbar's computed styles) are kept, not dropped. */
export const Color = z.looseObject({
  id: z.string({ error: 'an id like "color-001"' }).regex(/^color-\d{3,}$/, 'an id like "color-001"'),
  hex: z
    .string({ error: 'a hex colour like "#1a73e8"' })
    .regex(
      /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/,
      'a hex colour like "#1a73e8" (#rgb, #rgba, #rrggbb or #rrggbbaa)',
    ),
  rgb: Rgb.nullish(),
  hsl: Hsl.nullish(),
  /** 2.0: primary, secondary, accent, background, text, or any custom string ("" = not assigned). */
  role: text(200),
  source_selector: text(4096),
  context: text(65_536),
});
export type Color = z.infer<typeof Color>;

const coordinate = z.number({ error: 'a number' }).finite();
const extent = z.number({ error: 'a number ≥ 0' }).finite().nonnegative('a number ≥ 0');

export const BoundingBox = z.looseObject({ x: coordinate, y: coordinate, width: extent, height: extent });
export type BoundingBox = z.infer<typeof BoundingBox>;

const SCREENSHOT_KINDS = ['full_page', 'element_crop'] as const;

/**
 * Only `full_page` and `element_crop` carry images the store decodes; other keys are kept (as
 * paths or notes) but may not hold a `base64:` image, which would be stored undecoded.
 */
export const ElementScreenshots = z
  .looseObject({ full_page: ScreenshotValue, element_crop: ScreenshotValue })
  .superRefine((shots, ctx) => {
    for (const [key, value] of Object.entries(shots)) {
      if ((SCREENSHOT_KINDS as readonly string[]).includes(key) || !isBase64Image(value)) continue;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: 'a file path or null (base64: images are decoded only under full_page and element_crop)',
      });
    }
  });
export type ElementScreenshots = z.infer<typeof ElementScreenshots>;

export const Element = z.looseObject({
  id: z.string({ error: 'an id like "elem-001"' }).regex(/^elem-\d{3,}$/, 'an id like "elem-001"'),
  selector: z.string({ error: 'a CSS selector (a non-empty string)' }).min(1).max(4096),
  tag: z.string({ error: 'a tag name (a string)' }).min(1).max(100).nullish(),
  bounding_box: BoundingBox.nullish(),
  screenshots: ElementScreenshots.nullish(),
  comment: text(65_536),
  extracted_assets: z
    .union([z.array(z.unknown()), z.record(z.string(), z.unknown())], { error: 'an array or an object' })
    .nullish(),
  /** The original's mockup saves: the element's styles and what its agent found inside it. */
  html_css: HtmlCssShape.nullish(),
  /** The original's mockup saves: what the designer wants of this element (it becomes an area). */
  instruction: text(65_536),
});
export type Element = z.infer<typeof Element>;

export const DesignTokens = z.record(z.string(), z.unknown(), { error: 'an object' });
export type DesignTokens = z.infer<typeof DesignTokens>;

/**
 * 3.0: an area, as in referenced-elements.json (docs/design.md §7), where it lands merged by `area_id`.
 * Checked like that file's own areas, so what is saved can always be read back.
 */
export const Area = z.looseObject({
  area_id: z.string({ error: 'an id like "area-1"' }).regex(/^area-\d+$/, 'an id like "area-1"'),
  selected_area_bounding_box: BoundingBox.nullish(),
  instruction: text(65_536),
  screenshot: PathOnly('under elements[].screenshots'),
  elements: z.array(AreaElementShape, { error: 'an array of objects' }).nullish(),
});
export type Area = z.infer<typeof Area>;

const SECTIONS = ['colors', 'elements', 'design_tokens'] as const;

export const ReferenceDataShape = z.looseObject({
  version: z.enum(REFERENCE_DATA_VERSIONS, {
    error: `a supported version: ${REFERENCE_DATA_VERSIONS.map((v) => `"${v}"`).join(', ')}`,
  }),
  source_url: z.url({ error: 'an absolute URL' }),
  timestamp: z.iso.datetime({
    offset: true,
    error: 'an ISO 8601 date-time with Z or an offset, e.g. "2025-01-15T10:30:00Z"',
  }),
  idea_folder: IdeaFolderName,
  auth_url: z.url({ error: 'an absolute URL or null' }).nullish(),
  /** Informational only: never used for numbering. */
  session_id: z.union([z.string().max(200), z.number()], { error: 'a string or a number' }).nullish(),
  colors: z.array(Color, { error: 'an array of colours' }).nullish(),
  elements: z.array(Element, { error: 'an array of elements' }).nullish(),
  design_tokens: DesignTokens.nullish(),
  /** 3.0 only counts it (and static_resources) as a data section; kept (and checked) whatever the version. */
  areas: z.array(Area, { error: 'an array of areas' }).nullish(),
  /** Files the agent downloaded (relative to page-element-references/); merged into referenced-elements.json. */
  static_resources: z.array(ElementResourceShape, { error: 'an array of resources' }).nullish(),
});

/** The request: at least one data section must be present and non-empty (null counts as empty). */
export const ReferenceData = ReferenceDataShape.superRefine((data, ctx) => {
  const sections: string[] = [...SECTIONS];
  if (data.version === '3.0') sections.push('areas', 'static_resources');
  const filled = (value: unknown): boolean =>
    Array.isArray(value)
      ? value.length > 0
      : value !== null && typeof value === 'object' && Object.keys(value).length > 0;
  const record = data as Record<string, unknown>;
  if (sections.some((name) => filled(record[name]))) return;
  const received = sections
    .map((name) => `${name} ${record[name] === undefined ? 'absent' : JSON.stringify(record[name])}`)
    .join(', ');
  // The original's 2.0 mockup saves put components in `components`, which is not a section.
  const components = filled(record.components) ? ' (send 2.0 `components` as `elements`)' : '';
  ctx.addIssue({
    code: 'custom',
    path: [],
    message: `at least one of ${sections.join(', ')} present and non-empty${components}`,
    params: { received },
  });
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
  /** When the save carried areas or static resources: the referenced-elements.json they landed in. */
  referenced_elements_path: z.string().optional(),
  /** The summary rewritten from it (read it next). */
  summary_path: z.string().optional(),
  /** The idea's design tokens (DTCG), rewritten on every save that leaves tokens to write. */
  tokens_path: z.string().optional(),
  /** The ids of the areas this save added or replaced there. */
  area_ids: z.array(z.string()).optional(),
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
