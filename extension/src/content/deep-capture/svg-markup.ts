import { AREA_CAPTURE_LIMITS } from '#shared/deep-capture/limits.js';
import { createSvgSanitizer, type SvgSanitizer } from '#shared/deep-capture/svg-sanitize.js';

/**
 * Inline SVG as standalone markup. The SVG is copied (never changed in the page), sanitized by
 * allow-list with DOMPurify over this document's DOM (shared/src/deep-capture/svg-sanitize.ts;
 * the host sanitizes again before writing), and each descendant gets the paint its computed style
 * has, written as presentation attributes (page CSS like
 * `.icon path {fill: currentColor}` would not reach the clone otherwise). Elements it refers to
 * outside itself (`<use href="#icon">` of a sprite elsewhere in the page, `fill: url(#gradient)`)
 * are copied as written into a `<defs>` so the markup renders alone.
 */

const PAINT_PROPERTIES = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'stroke-miterlimit',
  'clip-rule',
  'color',
  'opacity',
  'visibility',
  'display',
  'stop-color',
  'stop-opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'mix-blend-mode',
  'filter',
  'clip-path',
  'mask',
];

/** Non-inherited paint properties and their defaults: set only where they differ. */
const NON_INHERITED_DEFAULTS: Record<string, string> = {
  opacity: '1',
  display: 'inline',
  'stop-color': 'rgb(0, 0, 0)',
  'stop-opacity': '1',
  'mix-blend-mode': 'normal',
  filter: 'none',
  'clip-path': 'none',
  mask: 'none',
};

let sanitizer: SvgSanitizer | null = null;

function paintStyle(el: Element, parent: CSSStyleDeclaration | null): string {
  const cs = getComputedStyle(el);
  const parts: string[] = [];
  for (const prop of PAINT_PROPERTIES) {
    const value = cs.getPropertyValue(prop);
    if (value === '') continue;
    const fallback = NON_INHERITED_DEFAULTS[prop];
    const inherited = fallback === undefined ? parent?.getPropertyValue(prop) : fallback;
    if (value !== inherited) parts.push(`${prop}: ${value}`);
  }
  return parts.join('; ');
}

/** Ids referenced with `href="#id"` or `url(#id)` in a copied tree. */
function referencedIds(root: Element): Set<string> {
  const ids = new Set<string>();
  const visit = (el: Element) => {
    for (const attr of Array.from(el.attributes)) {
      if ((attr.localName === 'href' || attr.name === 'xlink:href') && attr.value.startsWith('#')) {
        ids.add(attr.value.slice(1));
      }
      for (const m of attr.value.matchAll(/url\(\s*["']?#([^"')\s]+)/g)) ids.add(m[1] ?? '');
    }
    for (const child of Array.from(el.children)) visit(child);
  };
  visit(root);
  ids.delete('');
  return ids;
}

function applyPaint(original: Element, copy: Element, parent: CSSStyleDeclaration | null): void {
  const style = paintStyle(original, parent);
  if (style !== '') copy.setAttribute('style', style);
  else copy.removeAttribute('style');
  const own = getComputedStyle(original);
  const originals = Array.from(original.children);
  const copies = Array.from(copy.children);
  for (let i = 0; i < originals.length; i++) {
    const o = originals[i];
    const c = copies[i];
    if (o !== undefined && c !== undefined && o.localName === c.localName) applyPaint(o, c, own);
  }
}

export function serializeSvg(svg: Element): string {
  const copy = svg.cloneNode(true) as Element;
  // Paint first (the copy still mirrors the original child by child), then sanitize.
  const own = getComputedStyle(svg);
  const originals = Array.from(svg.children);
  const copies = Array.from(copy.children);
  for (let i = 0; i < originals.length; i++) {
    const o = originals[i];
    const c = copies[i];
    if (o !== undefined && c !== undefined) applyPaint(o, c, own);
  }
  copy.removeAttribute('style');
  copy.removeAttribute('class');
  importReferences(svg, copy);
  const serialized = new XMLSerializer().serializeToString(copy);
  if (serialized.length > AREA_CAPTURE_LIMITS.svgMarkup) return '';
  try {
    sanitizer ??= createSvgSanitizer(window);
    return sanitizer.sanitize(serialized, { baseUrl: svg.ownerDocument.baseURI, keepRemoteImages: true });
  } catch {
    return '';
  }
}

/** Copies what the SVG refers to but does not contain, transitively, into a trailing `<defs>`. */
function importReferences(original: Element, copy: Element): void {
  const scope = original.getRootNode() as Document | ShadowRoot;
  const present = new Set(Array.from(copy.querySelectorAll('[id]'), (e) => e.id));
  const defs = copy.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'defs');
  let pending = [...referencedIds(copy)].filter((id) => !present.has(id));
  for (let round = 0; round < 8 && pending.length > 0; round++) {
    const next: string[] = [];
    for (const id of pending) {
      const target = scope.getElementById(id);
      present.add(id);
      if (target === null || original.contains(target)) continue;
      // Copied as written: a `<use>` instance resolves currentColor and inheritance where it
      // is used, so paint computed where the symbol sits would be wrong.
      const imported = target.cloneNode(true) as Element;
      defs.append(imported);
      for (const ref of referencedIds(imported)) if (!present.has(ref)) next.push(ref);
    }
    pending = next;
  }
  if (defs.childElementCount > 0) copy.append(defs);
}
