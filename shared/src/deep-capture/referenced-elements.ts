import { z } from 'zod';
import type { AreaCapture, CaptureNode, CaptureRect } from './area-capture.js';

/**
 * `page-element-references/referenced-elements.json`, version 3.0 (DESIGN §7, contract): every
 * captured area of an idea, each with its elements and the files they use, and the idea's static
 * resources. Extra keys are welcome at every level (the original's agents add their own); these
 * schemas check what the product relies on. `toReferencedArea` projects an AreaCapture onto an
 * area; `mergeReferencedElements` folds one into the file (an area with the same id is replaced,
 * static resources are deduplicated).
 */

export const REFERENCED_ELEMENTS_VERSION = '3.0';
export const REFERENCED_ELEMENTS_FILE = 'referenced-elements.json';

const text = (max: number) => z.string().max(max);

export const AreaId = z.string().regex(/^area-\d+$/, 'an id like "area-1"');

export const ElementResource = z.looseObject({
  type: text(50),
  src: text(8192),
  local_path: text(1024),
  usage: text(1000),
});
export type ElementResource = z.infer<typeof ElementResource>;

export const ElementDetails = z.looseObject({
  tag: text(100),
  text_content: text(65_536),
  classes: z.array(text(1000)),
  styles: z.record(z.string(), z.string()),
  resources: z.array(ElementResource),
});
export type ElementDetails = z.infer<typeof ElementDetails>;

export const AreaElement = z.looseObject({
  element_name: text(200),
  purpose_of_the_element: text(65_536).nullish(),
  relationships_to_other_elements: z.unknown().optional(),
  element_details: ElementDetails,
});
export type AreaElement = z.infer<typeof AreaElement>;

const Box = z.looseObject({
  x: z.number().finite(),
  y: z.number().finite(),
  width: z.number().finite().nonnegative(),
  height: z.number().finite().nonnegative(),
});

export const ReferencedArea = z.looseObject({
  area_id: AreaId,
  /** CSS px, page coordinates. */
  selected_area_bounding_box: Box,
  instruction: text(65_536),
  screenshot: text(1024),
  elements: z.array(AreaElement),
});
export type ReferencedArea = z.infer<typeof ReferencedArea>;

export const StaticResource = z.looseObject({
  type: text(50),
  src: text(8192),
  /** Relative to page-element-references/. */
  local_path: text(1024),
  usage: text(1000),
});
export type StaticResource = z.infer<typeof StaticResource>;

export const ReferencedElements = z.looseObject({
  version: z.literal(REFERENCED_ELEMENTS_VERSION),
  source_url: text(8192),
  timestamp: text(100),
  areas: z.array(ReferencedArea),
  static_resources: z.array(StaticResource),
});
export type ReferencedElements = z.infer<typeof ReferencedElements>;

/** A file written for the capture: its original URL and its path relative to page-element-references/. */
export interface LocalResource {
  type: string;
  src: string;
  local_path: string;
}

export interface ProjectionOptions {
  areaId: string;
  instruction: string;
  /** Relative to uiux-references/, e.g. `screenshots/area-1.png`. */
  screenshot: string;
  /** Class names of the clone, per node (buildClone's `names`). */
  names: readonly string[];
  /** Files written, by original URL. */
  resources: ReadonlyMap<string, LocalResource>;
  /** The image written for a `pixels` node (src: what it shows, e.g. `pixels of canvas`), or null. */
  pixelResource(index: number): LocalResource | null;
  /** Paths of the clone files, relative to page-element-references/. */
  clone: { structure_html: string; styles_css: string };
}

function relationships(capture: AreaCapture, index: number, names: readonly string[]): string {
  const node = capture.nodes[index];
  if (node === undefined) return '';
  const parent = node.parent === null ? null : names[node.parent];
  const children = node.children
    .filter((c): c is number => typeof c === 'number' && capture.nodes[c]?.kind !== 'gap')
    .map((c) => names[c])
    .filter((n): n is string => n !== undefined);
  const parts = [parent === null || parent === undefined ? 'area root' : `inside ${parent}`];
  if (children.length > 0) parts.push(`contains ${children.join(', ')}`);
  return parts.join('; ');
}

function elementResources(
  node: CaptureNode,
  index: number,
  capture: AreaCapture,
  options: ProjectionOptions,
): ElementResource[] {
  const out: ElementResource[] = [];
  for (const ref of capture.resources) {
    const local = ref.nodes.includes(index) ? options.resources.get(ref.url) : undefined;
    if (local !== undefined)
      out.push({
        type: local.type,
        src: local.src,
        local_path: local.local_path,
        usage: ref.usage.join(', '),
      });
  }
  const pixels = node.kind === 'pixels' ? options.pixelResource(index) : null;
  if (pixels !== null) out.push({ ...pixels, usage: node.pixels?.reason ?? 'pixels' });
  return out;
}

/** A node that is an element of the area (gaps only hold their siblings' places in the clone). */
export const isAreaElement = (node: CaptureNode): boolean => node.kind !== 'gap';

/** The capture as one area of referenced-elements.json: every element the area shows (gaps left out). */
export function toReferencedArea(capture: AreaCapture, options: ProjectionOptions): ReferencedArea {
  const origin: CaptureRect = capture.rect;
  const elements: AreaElement[] = [];
  capture.nodes.forEach((node, index) => {
    if (!isAreaElement(node)) return;
    const name = options.names[index] ?? `node-${index}`;
    elements.push({
      element_name: name,
      relationships_to_other_elements: relationships(capture, index, options.names),
      element_details: {
        tag: node.tag,
        text_content: node.text,
        classes: node.classes,
        styles: node.styles,
        resources: elementResources(node, index, capture, options),
        role: node.role,
        aria_label: node.aria_label,
        bounding_box: {
          x: Math.round((origin.x + node.rect.x) * 100) / 100,
          y: Math.round((origin.y + node.rect.y) * 100) / 100,
          width: node.rect.width,
          height: node.rect.height,
        },
        ...(Object.keys(node.pseudo).length > 0 ? { pseudo_elements: node.pseudo } : {}),
        ...(node.states.length > 0
          ? {
              states: node.states.map((s) => ({
                state: s.state,
                on: options.names[s.target] ?? null,
                pseudo: s.pseudo,
                styles: s.styles,
              })),
            }
          : {}),
      },
    });
  });
  return {
    area_id: options.areaId,
    selected_area_bounding_box: { ...capture.rect },
    instruction: options.instruction,
    screenshot: options.screenshot,
    elements,
    clone: options.clone,
    fonts: capture.fonts.map((f) => ({
      family: f.family,
      weight: f.weight,
      style: f.style,
      local_path: f.src === null ? null : (options.resources.get(f.src)?.local_path ?? null),
    })),
    custom_properties: capture.custom_properties,
  };
}

/** `area-N` with N one more than the largest in use (`area-1` for none). */
export function nextAreaId(file: ReferencedElements | null): string {
  const numbers = (file?.areas ?? []).map((a) => Number(a.area_id.slice('area-'.length)));
  return `area-${Math.max(0, ...numbers) + 1}`;
}

/**
 * The file after saving `area`: an area with the same id is replaced in place, others are kept;
 * static resources are one entry per file (`local_path`, a content hash), with their usages merged.
 */
export function mergeReferencedElements(
  existing: ReferencedElements | null,
  update: { source_url: string; timestamp: string; area: ReferencedArea; static_resources: StaticResource[] },
): ReferencedElements {
  const areas = [...(existing?.areas ?? [])];
  const at = areas.findIndex((a) => a.area_id === update.area.area_id);
  if (at === -1) areas.push(update.area);
  else areas[at] = update.area;
  const byPath = new Map<string, StaticResource>();
  for (const resource of [...(existing?.static_resources ?? []), ...update.static_resources]) {
    const seen = byPath.get(resource.local_path);
    if (seen === undefined) {
      byPath.set(resource.local_path, { ...resource });
      continue;
    }
    const usages = new Set(
      [...seen.usage.split(', '), ...resource.usage.split(', ')].filter((u) => u !== ''),
    );
    byPath.set(resource.local_path, { ...seen, usage: [...usages].join(', ') });
  }
  return {
    ...(existing ?? {}),
    version: REFERENCED_ELEMENTS_VERSION,
    source_url: update.source_url,
    timestamp: update.timestamp,
    areas,
    static_resources: [...byPath.values()],
  };
}
