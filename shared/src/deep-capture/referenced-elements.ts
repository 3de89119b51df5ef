import { z } from 'zod';

/**
 * `page-element-references/referenced-elements.json`, version 3.0 (docs/design.md §7, contract): every
 * area of an idea, each with its elements and the files they use, and the idea's static
 * resources. Written by capture_area (native-host/src/deep-capture/area-store.ts) and by saves
 * that carry areas (shared/src/node/idea-store/page-references.ts); the original's agents also
 * write it by hand. So the schema is a lenient reader — extra keys kept at every level, null or
 * missing lists and strings read as empty — whose output is the one canonical form every writer
 * and reader here works with. Only a box or screenshot nobody gave stays null.
 */

export const REFERENCED_ELEMENTS_VERSION = '3.0';
export const REFERENCED_ELEMENTS_FILE = 'referenced-elements.json';

const text = (max: number) =>
  z.string({ error: 'a string' }).max(max, `a string of at most ${max} characters`);
const list = <T extends z.ZodType>(item: T, what: string) => z.array(item, { error: what }).nullish();

export const AreaId = z.string().regex(/^area-\d+$/, 'an id like "area-1"');

/**
 * What `p` misses to be a path relative to `page-element-references/` that stays inside it, or
 * null. Agents open these paths, so one that climbs out (or is absolute, or a URL) is refused.
 */
export function localPathProblem(p: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (p === '' || /[\u0000-\u001f\\]/.test(p) || p.startsWith('/') || /^[A-Za-z][\w+.-]*:/.test(p))
    return 'a relative path inside page-element-references/ like "resources/logo.svg"';
  if (p.split('/').some((part) => part === '..' || part === '.'))
    return 'a path inside page-element-references/ (no "." or ".." parts)';
  return null;
}

export const LocalPath = text(1024).superRefine((p, ctx) => {
  const problem = localPathProblem(p);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

/*
 * The shapes check what may come (a save's areas, a file an agent wrote) and change nothing, so a
 * session keeps what was sent; `ReferencedElements` then reads a file into the canonical form.
 */

export const ElementResourceShape = z.looseObject({
  type: text(50),
  src: text(8192),
  /** Relative to page-element-references/; null: not downloaded. */
  local_path: LocalPath.nullish(),
  usage: text(1000).nullish(),
});

/** Computed values are strings; a number an agent wrote (`opacity: 1`) is read as one. */
const StyleValue = z.union([text(65_536), z.number().finite()], { error: 'a CSS value (a string)' });

export const ElementDetailsShape = z.looseObject({
  tag: text(100).nullish(),
  text_content: text(65_536).nullish(),
  classes: list(text(1000), 'an array of class names'),
  styles: z.record(z.string(), StyleValue, { error: 'an object of CSS property: value' }).nullish(),
  resources: list(ElementResourceShape, 'an array of resources'),
});

export const AreaElementShape = z.looseObject({
  element_name: text(200),
  purpose_of_the_element: text(65_536).nullish(),
  relationships_to_other_elements: z.unknown().optional(),
  element_details: ElementDetailsShape.nullish(),
});

export const AreaBox = z.looseObject({
  x: z.number().finite(),
  y: z.number().finite(),
  width: z.number().finite().nonnegative(),
  height: z.number().finite().nonnegative(),
});

export const ReferencedAreaShape = z.looseObject({
  area_id: AreaId,
  /** CSS px, page coordinates. */
  selected_area_bounding_box: AreaBox.nullish(),
  instruction: text(65_536).nullish(),
  /** Relative to uiux-references/, e.g. `screenshots/area-1.png`. */
  screenshot: text(1024).nullish(),
  elements: list(AreaElementShape, 'an array of elements'),
});

type Loose<T> = T & Record<string, unknown>;

export type ElementResource = Loose<{ type: string; src: string; local_path: string | null; usage: string }>;
export type StaticResource = ElementResource;
export type ElementDetails = Loose<{
  tag: string;
  text_content: string;
  classes: string[];
  styles: Record<string, string>;
  resources: ElementResource[];
}>;
export type AreaElement = Loose<{
  element_name: string;
  purpose_of_the_element?: string | null | undefined;
  relationships_to_other_elements?: unknown;
  element_details: ElementDetails;
}>;
export type ReferencedArea = Loose<{
  area_id: string;
  /** Null when whoever saved the area did not say. */
  selected_area_bounding_box: { x: number; y: number; width: number; height: number } | null;
  instruction: string;
  screenshot: string | null;
  elements: AreaElement[];
}>;
export type ReferencedElements = Loose<{
  version: typeof REFERENCED_ELEMENTS_VERSION;
  source_url: string;
  timestamp: string;
  areas: ReferencedArea[];
  static_resources: StaticResource[];
}>;

export function canonicalResource(r: z.output<typeof ElementResourceShape>): ElementResource {
  return { ...r, local_path: r.local_path ?? null, usage: r.usage ?? '' };
}

export function canonicalElement(e: z.output<typeof AreaElementShape>): AreaElement {
  const d = e.element_details ?? {};
  return {
    ...e,
    element_details: {
      ...d,
      tag: d.tag ?? '',
      text_content: d.text_content ?? '',
      classes: d.classes ?? [],
      styles: Object.fromEntries(Object.entries(d.styles ?? {}).map(([k, v]) => [k, String(v)])),
      resources: (d.resources ?? []).map(canonicalResource),
    },
  };
}

export function canonicalArea(a: z.output<typeof ReferencedAreaShape>): ReferencedArea {
  return {
    ...a,
    selected_area_bounding_box: a.selected_area_bounding_box ?? null,
    instruction: a.instruction ?? '',
    screenshot: a.screenshot ?? null,
    elements: (a.elements ?? []).map(canonicalElement),
  };
}

/** Reads a file (ours or one an agent wrote) into the canonical form. */
export const ReferencedElements = z
  .looseObject({
    version: z.literal(REFERENCED_ELEMENTS_VERSION),
    source_url: text(8192).nullish(),
    timestamp: text(100).nullish(),
    areas: list(ReferencedAreaShape, 'an array of areas'),
    static_resources: list(ElementResourceShape, 'an array of resources'),
  })
  .transform(
    (f): ReferencedElements => ({
      ...f,
      version: REFERENCED_ELEMENTS_VERSION,
      source_url: f.source_url ?? '',
      timestamp: f.timestamp ?? '',
      areas: (f.areas ?? []).map(canonicalArea),
      static_resources: (f.static_resources ?? []).map(canonicalResource),
    }),
  );

/** `area-N` with N one more than the largest in use (`area-1` for none). */
export function nextAreaId(file: { areas: readonly { area_id: string }[] } | null): string {
  const numbers = (file?.areas ?? []).map((a) => Number(a.area_id.slice('area-'.length)));
  return `area-${Math.max(0, ...numbers) + 1}`;
}

/**
 * The file after saving `areas`: an area with the same id is replaced in place, others are kept,
 * new ones appended in order; static resources are one entry per file (`local_path`, or `src`
 * when not downloaded), with their usages merged.
 */
export function mergeReferencedElements(
  existing: ReferencedElements | null,
  update: {
    source_url: string;
    timestamp: string;
    areas: readonly ReferencedArea[];
    static_resources: readonly StaticResource[];
  },
): ReferencedElements {
  const areas = [...(existing?.areas ?? [])];
  for (const area of update.areas) {
    const at = areas.findIndex((a) => a.area_id === area.area_id);
    if (at === -1) areas.push(area);
    else areas[at] = area;
  }
  const byFile = new Map<string, StaticResource>();
  for (const resource of [...(existing?.static_resources ?? []), ...update.static_resources]) {
    const key = resource.local_path ?? `src:${resource.src}`;
    const seen = byFile.get(key);
    if (seen === undefined) {
      byFile.set(key, { ...resource });
      continue;
    }
    const usages = new Set(
      [...seen.usage.split(', '), ...resource.usage.split(', ')].filter((u) => u !== ''),
    );
    byFile.set(key, { ...seen, usage: [...usages].join(', ') });
  }
  return {
    ...(existing ?? {}),
    version: REFERENCED_ELEMENTS_VERSION,
    source_url: update.source_url,
    timestamp: update.timestamp,
    areas,
    static_resources: [...byFile.values()],
  };
}
