import { z } from 'zod';
import type { ReferenceData } from '../reference-data.js';
import {
  type AreaElement,
  canonicalArea,
  canonicalElement,
  canonicalResource,
  ElementDetailsShape,
  ElementResourceShape,
  nextAreaId,
  type ReferencedArea,
  type ReferencedElements,
  type StaticResource,
} from './referenced-elements.js';

/**
 * What a `save_uiux_reference` lands in referenced-elements.json besides its session (docs/design.md §7):
 * 3.0 `areas[]` (merged by `area_id`), and elements that carry `html_css` or an `instruction` the
 * way the original's mockup agents send them — each becomes an area whose elements are its
 * `html_css.discovered_elements` (the picked element itself first when it has computed styles).
 * The original keyed those areas by the element id; ids here are `area-N`, so an element's area
 * remembers where it came from (`from_element`) and saving the same element of the same page
 * again replaces it. `outer_html` is never copied (it can hold scripts and typed values).
 * An element that names an `area_id` points at an area already captured and adds none.
 */

const text = (max: number) =>
  z.string({ error: 'a string' }).max(max, `a string of at most ${max} characters`);
const styles = z.record(z.string(), z.union([text(65_536), z.number().finite()]), {
  error: 'an object of CSS property: value',
});

/** One entry of `html_css.discovered_elements`: the original's raw discovery output or enriched. */
export const DiscoveredElementShape = z.looseObject({
  element_name: text(200).nullish(),
  purpose_of_the_element: text(65_536).nullish(),
  relationships_to_other_elements: z.unknown().optional(),
  element_details: ElementDetailsShape.nullish(),
  tag: text(100).nullish(),
  text: text(65_536).nullish(),
  styles: styles.nullish(),
  computedStyles: styles.nullish(),
  resources: z.array(ElementResourceShape, { error: 'an array of resources' }).nullish(),
});

/** An element's `html_css` as the original's toolbar and agents send it. */
export const HtmlCssShape = z.looseObject({
  level: text(100).nullish(),
  outer_html: z.string({ error: 'a string' }).nullish(),
  computed_styles: styles.nullish(),
  discovered_elements: z.array(DiscoveredElementShape, { error: 'an array of elements' }).nullish(),
});

type SavedElement = NonNullable<ReferenceData['elements']>[number];
type HtmlCss = z.output<typeof HtmlCssShape>;

function htmlCssOf(element: SavedElement): HtmlCss | null {
  return element.html_css ?? null;
}

function instructionOf(element: SavedElement): string {
  return element.instruction ?? '';
}

/** Does this saved element become an area of referenced-elements.json? */
export function carriesArea(element: SavedElement): boolean {
  if (typeof element.area_id === 'string') return false;
  const h = htmlCssOf(element);
  const hasHtmlCss =
    h !== null &&
    (Object.keys(h.computed_styles ?? {}).length > 0 ||
      (h.discovered_elements ?? []).length > 0 ||
      (h.outer_html ?? '') !== '');
  return hasHtmlCss || instructionOf(element).trim() !== '';
}

function discovered(d: z.output<typeof DiscoveredElementShape>, index: number): AreaElement {
  const name = d.element_name ?? d.tag ?? `element-${index + 1}`;
  return canonicalElement({
    ...d,
    element_name: name,
    element_details: d.element_details ?? {
      tag: d.tag,
      text_content: d.text,
      styles: d.styles ?? d.computedStyles,
      resources: d.resources,
    },
  });
}

function elementArea(
  element: SavedElement,
  areaId: string,
  sourceUrl: string,
  session: string,
): ReferencedArea {
  const h = htmlCssOf(element);
  const elements: AreaElement[] = [];
  const own = h?.computed_styles ?? {};
  const found = (h?.discovered_elements ?? []).map(discovered);
  if (Object.keys(own).length > 0 || found.length === 0) {
    elements.push(
      canonicalElement({
        element_name: element.id,
        relationships_to_other_elements: found.length > 0 ? 'area root' : undefined,
        element_details: { tag: element.tag ?? '', styles: own, selector: element.selector },
      }),
    );
  }
  elements.push(...found);
  const box = element.bounding_box;
  const crop = element.screenshots?.element_crop;
  return canonicalArea({
    area_id: areaId,
    selected_area_bounding_box: box === null || box === undefined ? null : { ...box },
    instruction: instructionOf(element),
    screenshot: typeof crop === 'string' ? crop : null,
    elements,
    source_url: sourceUrl,
    from_element: { id: element.id, selector: element.selector },
    session,
  });
}

function sameElement(area: ReferencedArea, element: SavedElement, sourceUrl: string): boolean {
  const from = area.from_element as { id?: unknown; selector?: unknown } | undefined;
  return from?.id === element.id && from?.selector === element.selector && area.source_url === sourceUrl;
}

export interface AreasOfSave {
  areas: ReferencedArea[];
  static_resources: StaticResource[];
}

/**
 * The areas and static resources `data` brings to the file (`existing` decides which ids the
 * elements' areas get), or null when it brings none. `session` is the session file name.
 */
export function areasOfSave(
  data: ReferenceData,
  existing: ReferencedElements | null,
  session: string,
): AreasOfSave | null {
  const provenance = { source_url: data.source_url, session };
  const areas: ReferencedArea[] = (data.areas ?? []).map((a) =>
    canonicalArea({ ...provenance, ...a, elements: a.elements ?? [] }),
  );
  const taken = { areas: [...(existing?.areas ?? []), ...areas] };
  for (const element of (data.elements ?? []).filter(carriesArea)) {
    const previous = existing?.areas.find((a) => sameElement(a, element, data.source_url));
    const id = previous?.area_id ?? nextAreaId(taken);
    const area = elementArea(element, id, data.source_url, session);
    taken.areas.push(area);
    areas.push(area);
  }
  const statics = (data.static_resources ?? []).map(canonicalResource);
  return areas.length > 0 || statics.length > 0 ? { areas, static_resources: statics } : null;
}
