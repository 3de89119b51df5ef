import type { PseudoName, StyleMap } from '../../../../shared/src/deep-capture/area-capture.js';
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
      // Most blocks have no such rule: a few telling properties decide whether to look closer.
      if (!FIRST_PSEUDO_TELLS.some((p) => pcs.getPropertyValue(p) !== cs.getPropertyValue(p))) continue;
      const styles = reduceStyles({
        names,
        own: own(pcs),
        parent: own(cs),
        initial,
        box: { width: 0, height: 0 },
      });
      if (Object.keys(styles).length > 0) out[pseudo] = styles;
      fontUses.push({ family: pcs.fontFamily, weight: pcs.fontWeight, style: pcs.fontStyle });
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
const FIRST_PSEUDO_TELLS = [
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
