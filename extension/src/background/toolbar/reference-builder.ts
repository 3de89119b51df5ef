import { buildDesignTokens } from '#shared/design-tokens.js';
import type { ReferenceDataInput } from '#shared/reference-data.js';
import type { Collection, Typography } from '#shared/toolbar-messages.js';
import type { DeepAssets } from './deep-save.js';

/**
 * Turns a tab's collection into a v1.0 save request. Ids are assigned here, at save time, from
 * the idea's next free numbers (asked from the host), so they never collide with colours and
 * elements already merged into that idea's reference-data.json.
 */

export interface NextIds {
  next_color: number;
  next_element: number;
}

const pad = (n: number): string => String(n).padStart(3, '0');

const HEADING = /^h[1-6]$/;

/**
 * Typography tokens: the heading font of a picked heading (else the page's); the body font and
 * base size always the page's body text (measured in the page by the volume of text set in it).
 * A picked element says nothing about the base size: a logo span, a caption or a button label
 * picked for its look is not the body text.
 */
export function pickedTypography(collection: Collection): Typography {
  const out: Typography = { ...collection.typography };
  const heading = collection.elements.find((e) => HEADING.test(e.tag) && e.styles?.['font-family']);
  if (heading?.styles?.['font-family']) out.heading_font = heading.styles['font-family'];
  return out;
}

/**
 * Each element's number, in list order. The host writes element crops as `elem-NNN-crop.png`, NNN
 * the next free number of that kind in the idea, in the order of the session's elements, and
 * `next_element` starts past every crop there: so the elements that have a crop are numbered first,
 * one after the other, and each lands on its own crop's number; full pages (their file is
 * `full-page-NNN.png`) and items without a crop take the numbers after them.
 */
export function elementNumbers(
  collection: Collection,
  screenshots: ReadonlyMap<string, string>,
  first: number,
): number[] {
  const cropped = (e: Collection['elements'][number]) => e.kind !== 'full_page' && screenshots.has(e.key);
  let next = first;
  const numbers = collection.elements.map((e) => (cropped(e) ? next++ : 0));
  return numbers.map((n) => (n === 0 ? next++ : n));
}

export function buildReferenceData(args: {
  collection: Collection;
  /** Each element's screenshot value by item key (`staged:<id>` once sent to the host; `base64:…`). */
  screenshots: ReadonlyMap<string, string>;
  /** Deep-captured items' areas, written by the host before the session (deep-save.ts). */
  areas?: ReadonlyMap<string, DeepAssets>;
  ideaFolder: string;
  ids: NextIds;
  now: Date;
}): ReferenceDataInput {
  const { collection, screenshots, ids } = args;
  const colors = collection.colors.map((c, i) => ({
    id: `color-${pad(ids.next_color + i)}`,
    hex: c.hex,
    rgb: c.rgb,
    hsl: c.hsl,
    role: c.role,
    ...(c.source_selector ? { source_selector: c.source_selector } : {}),
    ...(c.context ? { context: c.context } : {}),
    ...(c.contrast ? { contrast: c.contrast } : {}),
  }));
  const numbers = elementNumbers(collection, screenshots, ids.next_element);
  const elements = collection.elements.map((e, i) => {
    const png = screenshots.get(e.key) ?? null;
    const area = args.areas?.get(e.key);
    return {
      id: `elem-${pad(numbers[i] ?? ids.next_element + i)}`,
      selector: e.selector,
      tag: e.tag,
      bounding_box: e.bounding_box,
      screenshots:
        e.kind === 'full_page'
          ? { full_page: png, element_crop: null }
          : { full_page: null, element_crop: png },
      comment: e.comment ?? null,
      extracted_assets: {
        kind: e.kind,
        ...(e.styles ? { styles: e.styles } : {}),
        ...(e.text ? { text: e.text } : {}),
        ...(e.label ? { label: e.label } : {}),
        ...(area ? { deep_capture: area } : {}),
      },
      ...(e.page_url !== collection.source_url ? { page_url: e.page_url } : {}),
      ...(e.capped_at !== undefined ? { capped_at: e.capped_at } : {}),
    };
  });
  const designTokens = buildDesignTokens(
    collection.colors.map((c) => ({ hex: c.hex, role: c.role })),
    pickedTypography(collection),
  );
  return {
    version: '1.0',
    source_url: collection.source_url,
    timestamp: args.now.toISOString(),
    idea_folder: args.ideaFolder,
    session_id: `toolbar-${collection.started_at}`,
    ...(colors.length > 0 ? { colors } : {}),
    ...(elements.length > 0 ? { elements } : {}),
    ...(Object.keys(designTokens).length > 0 ? { design_tokens: designTokens } : {}),
  };
}
