import type { ColorDraft, ColorRole, CssRect, ElementDraft } from '#shared/toolbar-messages.js';
import { colorStrings, contrastRatio, type Rgba, toHex, wcagRating } from './color.js';
import { toPageBox } from './dom.js';
import { designerStyles, textSample } from './dom-inspect.js';
import { designerLabel } from './item-label.js';

/** What the toolbar sends the worker for a new item (the worker assigns keys and stores crops). */

export interface ColorSource {
  /** Selector of the element the colour was taken from. */
  selector?: string | undefined;
  /** How it was picked ("page palette", "background of …"). */
  context?: string | undefined;
  /** The text colour drawn on it, for a WCAG contrast rating. */
  against?: Rgba | undefined;
  /** That text is large (WCAG's lower AA threshold). */
  large?: boolean;
  /** The contrast measured from pixels (else the ratio of `against` on the colour itself). */
  ratio?: number | undefined;
}

export function colorDraft(c: Rgba, role: ColorRole, source: ColorSource = {}): ColorDraft {
  const draft: ColorDraft = { ...colorStrings(c), role, page_url: location.href };
  if (source.selector) draft.source_selector = source.selector;
  if (source.context) draft.context = source.context;
  if (source.against) {
    const ratio = source.ratio ?? contrastRatio(source.against, c);
    draft.contrast = {
      against: toHex(source.against),
      ratio: Math.round(ratio * 100) / 100,
      rating: wcagRating(ratio, source.large ?? false),
    };
  }
  return draft;
}

/** An element or area: `rect` in viewport CSS px, recorded in page coordinates. */
export function elementDraft(
  el: Element,
  kind: 'element' | 'area',
  rect: CssRect,
  selector: string,
): ElementDraft {
  const text = textSample(el);
  const box = toPageBox(rect);
  // An area drawn freely is anchored on the page itself: its place and size tell it apart.
  const named = designerLabel(el);
  const label =
    kind === 'area' && named === 'Page'
      ? `Area ${Math.round(box.width)}×${Math.round(box.height)} at ${Math.round(box.x)}, ${Math.round(box.y)}`
      : kind === 'area'
        ? `Area: ${named}`
        : named;
  return {
    kind,
    selector,
    label,
    tag: el.localName,
    bounding_box: box,
    styles: designerStyles(el),
    page_url: location.href,
    ...(text ? { text } : {}),
  };
}
