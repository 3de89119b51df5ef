import type { PseudoName, StyleMap } from '#shared/deep-capture/area-capture.js';
import type { StyleBaseline } from './baseline.js';
import type { FontUse } from './fonts.js';
import { type Computed, reducePseudoStyles, reduceStyles } from './reduce.js';

/**
 * The styles of an element's pseudo-elements that the clone needs: `::before`/`::after` with
 * content (reduced against the element, which they inherit from), `::first-letter`/`::first-line`
 * only when the page styles them, a list item's `::marker` and a field's `::placeholder` where
 * they differ from the element. Text they draw adds its font to `fontUses`.
 */

export function pseudoStyles(
  el: Element,
  cs: CSSStyleDeclaration,
  baseline: StyleBaseline,
  fontUses: FontUse[],
): Partial<Record<PseudoName, StyleMap>> {
  const out: Partial<Record<PseudoName, StyleMap>> = {};
  const { names, initial } = baseline;
  const own =
    (p: CSSStyleDeclaration): Computed =>
    (name) =>
      p.getPropertyValue(name);
  for (const pseudo of ['before', 'after'] as const) {
    const pcs = getComputedStyle(el, `::${pseudo}`);
    if (pcs.content === 'none' || pcs.content === 'normal') continue;
    const box = { width: Number.parseFloat(pcs.width) || 0, height: Number.parseFloat(pcs.height) || 0 };
    out[pseudo] = reducePseudoStyles({ names, own: own(pcs), parent: own(cs), initial, box });
    if (pcs.content.includes('"')) {
      fontUses.push({ family: pcs.fontFamily, weight: pcs.fontWeight, style: pcs.fontStyle });
    }
  }
  if (BLOCK_CONTAINER.test(cs.display)) {
    for (const pseudo of ['first-letter', 'first-line'] as const) {
      const pcs = getComputedStyle(el, `::${pseudo}`);
      // Most blocks have no such rule. A few telling properties compared with the block say
      // whether the line looks set apart; its font is then kept, as the text it starts uses it.
      if (!SET_APART_TELLS.some((p) => pcs.getPropertyValue(p) !== cs.getPropertyValue(p))) continue;
      fontUses.push({ family: pcs.fontFamily, weight: pcs.fontWeight, style: pcs.fontStyle });
      // That alone is no sign of a rule: a block's own margin or background differs from its
      // first line's too. Unstyled, the pseudo-element has the block's inherited values and
      // initial values for the rest, which is what the reduction drops: only when something it
      // can be styled with survives is every property reduced (the costly part).
      const styled = reduceStyles({
        names: FIRST_PSEUDO_PROPERTIES,
        own: own(pcs),
        parent: own(cs),
        initial,
        box: NO_BOX,
      });
      if (Object.keys(styled).length === 0) continue;
      const styles = reduceStyles({ names, own: own(pcs), parent: own(cs), initial, box: NO_BOX });
      if (Object.keys(styles).length > 0) out[pseudo] = styles;
    }
  }
  if (cs.display.includes('list-item')) {
    const marker = differingFrom(getComputedStyle(el, '::marker'), cs, MARKER_PROPERTIES);
    if (Object.keys(marker).length > 0) out.marker = marker;
  }
  if (el.hasAttribute('placeholder') && (el.localName === 'input' || el.localName === 'textarea')) {
    const placeholder = differingFrom(getComputedStyle(el, '::placeholder'), cs, PLACEHOLDER_PROPERTIES);
    if (Object.keys(placeholder).length > 0) out.placeholder = placeholder;
  }
  return out;
}

/** Displays whose boxes have a first line and a first letter. */
const BLOCK_CONTAINER = /^(block|inline-block|list-item|flow-root|table-cell|table-caption)\b|\blist-item\b/;
const NO_BOX = { width: 0, height: 0 };
const SET_APART_TELLS = [
  'font-size',
  'font-family',
  'font-weight',
  'font-style',
  'color',
  'float',
  'line-height',
  'letter-spacing',
  'text-transform',
  'background-color',
  'margin-top',
  'margin-left',
  'text-decoration-line',
  'vertical-align',
];
/** What `::first-letter` and `::first-line` can be styled with (CSS Pseudo-Elements 4, §3.5, §3.6). */
const FIRST_PSEUDO_PROPERTIES = [
  'font-size',
  'font-family',
  'font-weight',
  'font-style',
  'font-variant-caps',
  'color',
  'opacity',
  'float',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'text-transform',
  'text-shadow',
  'background-color',
  'background-image',
  'margin-top',
  'margin-left',
  'padding-top',
  'padding-left',
  'border-top-style',
  'border-left-style',
  'box-shadow',
  'text-decoration-line',
  'text-decoration-style',
  'vertical-align',
];

const MARKER_PROPERTIES = ['color', 'font-size', 'font-weight', 'font-family', 'font-style', 'content'];
const PLACEHOLDER_PROPERTIES = [
  'color',
  'opacity',
  'font-size',
  'font-weight',
  'font-family',
  'font-style',
  'letter-spacing',
  'text-transform',
];

function differingFrom(
  pseudo: CSSStyleDeclaration,
  own: CSSStyleDeclaration,
  props: readonly string[],
): StyleMap {
  const out: StyleMap = {};
  for (const prop of props) {
    const value = pseudo.getPropertyValue(prop);
    if (value !== '' && value !== own.getPropertyValue(prop) && value !== 'normal') out[prop] = value;
  }
  return out;
}
