import type { BackdropLayer, NodeRect } from '#shared/deep-capture/area-capture.js';
import type { ViewRect } from './area-tree.js';
import { round } from './geometry.js';

/**
 * What frames the area's root: the canvas (the page background propagated from `html`, or from
 * `body` when `html` has none) and the ancestors' own paint, outermost first. The clone draws
 * them as absolutely placed layers under the root, so everything here is relative to the area.
 *
 * A background fixed to the viewport (`background-attachment: fixed`) is positioned against the
 * viewport, not its element: its layer covers the viewport as it was and is clipped to the
 * element's box, so the clone (whose own viewport is elsewhere) shows the same part of the image.
 */

const BACKGROUND_PROPERTIES = [
  'background-color',
  'background-image',
  'background-size',
  'background-position-x',
  'background-position-y',
  'background-repeat',
  'background-origin',
  'background-clip',
  'background-blend-mode',
];

const BACKDROP_PROPERTIES = [
  ...BACKGROUND_PROPERTIES,
  'box-shadow',
  ...['top', 'right', 'bottom', 'left'].flatMap((s) => [
    `border-${s}-width`,
    `border-${s}-style`,
    `border-${s}-color`,
  ]),
  ...['top-left', 'top-right', 'bottom-right', 'bottom-left'].map((c) => `border-${c}-radius`),
];

export function isTransparent(color: string): boolean {
  return color === 'transparent' || /^rgba\(.*,\s*0\)$/.test(color);
}

/** The element whose background the canvas takes: `html`, else `body` (CSS 2 §14.2). */
function canvasSource(doc: Document): Element | null {
  const html = getComputedStyle(doc.documentElement);
  if (!isTransparent(html.backgroundColor) || html.backgroundImage !== 'none') return doc.documentElement;
  return doc.body;
}

/** The canvas takes the root element's background colour, or the body's when the root has none. */
export function canvasColor(doc: Document): string {
  const source = canvasSource(doc);
  const color = source === null ? 'transparent' : getComputedStyle(source).backgroundColor;
  return isTransparent(color) ? 'rgb(255, 255, 255)' : color;
}

function relative(r: DOMRectReadOnly | ViewRect, area: ViewRect): NodeRect {
  const width = 'width' in r ? r.width : r.right - r.left;
  const height = 'height' in r ? r.height : r.bottom - r.top;
  return {
    x: round(r.left - area.left),
    y: round(r.top - area.top),
    width: round(width),
    height: round(height),
  };
}

const viewport = (): ViewRect => ({
  left: 0,
  top: 0,
  right: document.documentElement.clientWidth,
  bottom: document.documentElement.clientHeight,
});

function pick(cs: CSSStyleDeclaration, names: readonly string[], initial: ReadonlyMap<string, string>) {
  const styles: Record<string, string> = {};
  for (const name of names) {
    const value = cs.getPropertyValue(name);
    // Border colours are always explicit here: the layer's own colour is not the element's.
    if (value !== '' && (value !== initial.get(name) || name.endsWith('-color'))) styles[name] = value;
  }
  return styles;
}

/** A layer of only a background image fixed to the viewport, clipped to the element's box `r`. */
function fixedImageLayer(tag: string, cs: CSSStyleDeclaration, r: DOMRectReadOnly | null, area: ViewRect) {
  const view = viewport();
  const styles: Record<string, string> = {
    'background-image': cs.backgroundImage,
    'background-size': cs.backgroundSize,
    'background-position-x': cs.backgroundPositionX,
    'background-position-y': cs.backgroundPositionY,
    'background-repeat': cs.backgroundRepeat,
    'background-blend-mode': cs.backgroundBlendMode,
  };
  if (r !== null) {
    const inset = [r.top - view.top, view.right - r.right, view.bottom - r.bottom, r.left - view.left];
    styles['clip-path'] = `inset(${inset.map((n) => `${round(n)}px`).join(' ')})`;
  }
  return { tag, rect: relative(view, area), styles };
}

/** The canvas's background image, when the page has one: positioned on the root element's box. */
function canvasLayer(doc: Document, area: ViewRect): BackdropLayer | null {
  const source = canvasSource(doc);
  if (source === null) return null;
  const cs = getComputedStyle(source);
  if (cs.backgroundImage === 'none') return null;
  if (cs.backgroundAttachment.split(',')[0]?.trim() === 'fixed')
    return fixedImageLayer('canvas', cs, null, area);
  const box = doc.documentElement.getBoundingClientRect();
  const styles: Record<string, string> = {};
  for (const name of BACKGROUND_PROPERTIES) {
    if (name !== 'background-color') styles[name] = cs.getPropertyValue(name);
  }
  // The canvas is painted everywhere, also past the root element's box: the layer covers the area too.
  const left = Math.min(box.left, area.left);
  const top = Math.min(box.top, area.top);
  const rect = {
    left,
    top,
    right: Math.max(box.right, area.right),
    bottom: Math.max(box.bottom, area.bottom),
  };
  styles['background-position-x'] = shift(cs.backgroundPositionX, box.left - left);
  styles['background-position-y'] = shift(cs.backgroundPositionY, box.top - top);
  return { tag: 'canvas', rect: relative(rect, area), styles };
}

/** Each layer of a background position moved by `by` px (when the layer box starts before the box). */
function shift(position: string, by: number): string {
  if (Math.abs(by) < 0.001) return position;
  return position
    .split(',')
    .map((p) => `calc(${p.trim()} + ${round(by)}px)`)
    .join(', ');
}

/** The canvas and the ancestors' own paint (backgrounds, borders, shadows), outermost first. */
export function backdrop(
  doc: Document,
  ancestors: readonly Element[],
  style: (el: Element) => CSSStyleDeclaration,
  area: ViewRect,
  initial: ReadonlyMap<string, string>,
): BackdropLayer[] {
  const source = canvasSource(doc);
  const layers: BackdropLayer[] = [];
  const canvas = canvasLayer(doc, area);
  if (canvas !== null) layers.push(canvas);
  for (const el of [...ancestors].reverse()) {
    const cs = style(el);
    // The canvas already has this element's background.
    const propagated = el === source;
    const styles = pick(
      cs,
      BACKDROP_PROPERTIES.filter((n) => !(propagated && n.startsWith('background'))),
      initial,
    );
    for (const side of ['top', 'right', 'bottom', 'left']) {
      if ((styles[`border-${side}-style`] ?? 'none') !== 'none') continue;
      delete styles[`border-${side}-color`];
      delete styles[`border-${side}-width`];
    }
    const fixed = !propagated && cs.backgroundImage !== 'none' && /\bfixed\b/.test(cs.backgroundAttachment);
    if (fixed) delete styles['background-image'];
    const r = el.getBoundingClientRect();
    const paints =
      !isTransparent(styles['background-color'] ?? 'transparent') ||
      (styles['background-image'] ?? 'none') !== 'none' ||
      (styles['box-shadow'] ?? 'none') !== 'none' ||
      ['top', 'right', 'bottom', 'left'].some((s) => (styles[`border-${s}-style`] ?? 'none') !== 'none');
    if (paints) layers.push({ tag: el.localName, rect: relative(r, area), styles });
    if (fixed) layers.push(fixedImageLayer(el.localName, cs, r, area));
  }
  return layers;
}
