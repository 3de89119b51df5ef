import type { AreaCapture, CaptureNode, CaptureRect } from './area-capture.js';
import type { AreaElement, ElementResource, ReferencedArea } from './referenced-elements.js';

/**
 * A capture (AreaCapture) as one area of referenced-elements.json: every element the area shows,
 * named as in the clone so the JSON and the clone point at each other, with its files.
 */

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
    /** The viewport the area was captured in (compare_with_reference renders rebuilds at its width). */
    viewport: { ...capture.viewport },
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
