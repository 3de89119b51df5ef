import type {
  AreaCapture,
  BackdropLayer,
  CaptureRect,
  NodeRect,
} from '../../../../shared/src/deep-capture/area-capture.js';
import { AREA_CAPTURE_VERSION } from '../../../../shared/src/deep-capture/limits.js';
import { collectResourceRefs } from '../../../../shared/src/deep-capture/resource-refs.js';
import { ancestorsOf, browserTreeEnv, collectHits, findRoot, type ViewRect } from './area-tree.js';
import { BASELINE_PROBE_TAG, measureBaseline } from './baseline.js';
import { usedFonts } from './fonts.js';
import { layoutBox, round } from './geometry.js';
import { NodeBuilder } from './node-builder.js';
import { pixelsOf } from './pixels.js';
import { collectStates } from './states.js';
import { readPageRules, type SheetSource } from './stylesheets.js';

/**
 * The deep-capture engine: reads an area of the live page into an AreaCapture
 * (shared/src/deep-capture/area-capture.ts). It only reads: nothing in the page changes, except a
 * probe element that exists during one synchronous read (baseline.ts).
 *
 * Order of work: the hits and the root (area-tree.ts), the nodes with reduced styles
 * (node-builder.ts), pixels of canvases and videos, the stylesheets' states and custom properties
 * (states.ts) and the fonts the text uses (fonts.ts). Everything that depends on the scroll
 * position (the nodes' boxes, the ancestors' backgrounds and clipping that frame the root) is read
 * in one synchronous stretch at the start.
 */

export interface CaptureOptions {
  /** The area, CSS px, page coordinates. */
  rect: CaptureRect;
  /** Tags of our own UI in the page (the toolbar host), never captured. */
  ignoreTags?: readonly string[];
  /** Texts of the cross-origin stylesheets the page cannot read (see stylesheets.ts); null: none. */
  sheets?: SheetSource | null;
  /** False: every computed value on every node (the SingleFile-style baseline the bench compares). */
  reduce?: boolean;
}

const BACKDROP_PROPERTIES = [
  'background-color',
  'background-image',
  'background-size',
  'background-position-x',
  'background-position-y',
  'background-repeat',
  'background-origin',
  'background-clip',
  'background-blend-mode',
  'box-shadow',
  ...['top', 'right', 'bottom', 'left'].flatMap((s) => [
    `border-${s}-width`,
    `border-${s}-style`,
    `border-${s}-color`,
  ]),
  ...['top-left', 'top-right', 'bottom-right', 'bottom-left'].map((c) => `border-${c}-radius`),
];

function isTransparent(color: string): boolean {
  return color === 'transparent' || /^rgba\(.*,\s*0\)$/.test(color);
}

export async function captureArea(options: CaptureOptions): Promise<AreaCapture> {
  const started = performance.now();
  const doc = document;
  const { rect } = options;
  const scroll = { x: window.scrollX, y: window.scrollY };
  const area: ViewRect = {
    left: rect.x - scroll.x,
    top: rect.y - scroll.y,
    right: rect.x - scroll.x + rect.width,
    bottom: rect.y - scroll.y + rect.height,
  };
  const env = browserTreeEnv([...(options.ignoreTags ?? []), BASELINE_PROBE_TAG]);
  const baseline = measureBaseline(doc);
  const hits = collectHits(doc, area, env);
  const root = findRoot(doc, hits, env);
  const builder = new NodeBuilder({
    env,
    hits,
    baseline,
    origin: { x: area.left, y: area.top },
    reduce: options.reduce !== false,
  });
  const rootStyle = builder.style(root);
  const rootBox = layoutBox(root, rootStyle);
  builder.geometry = {
    style: (el) => builder.style(el),
    parentOf: hits.parentOf,
    inCapture: (el) => builder.index(el) !== undefined,
    rootOrigin: {
      x: rootBox.left + (Number.parseFloat(rootStyle.borderLeftWidth) || 0),
      y: rootBox.top + (Number.parseFloat(rootStyle.borderTopWidth) || 0),
    },
  };
  builder.visit(root, null, false);
  const rootNode = builder.nodes[0];
  if (rootNode !== undefined) {
    rootNode.rect = {
      x: round(rootBox.left - area.left),
      y: round(rootBox.top - area.top),
      width: round(rootBox.width),
      height: round(rootBox.height),
    };
  }

  // Everything that depends on where the page is scrolled is read before the first await: the
  // caller may scroll the page for the next band of the screenshot while the rest runs.
  const ancestors = ancestorsOf(root, hits.parentOf);
  const frame = {
    canvas_color: canvasColor(doc),
    backdrop: backdrop(doc, ancestors, builder, area, baseline.initial),
    clip: ancestorClip(doc, ancestors, builder, area),
  };

  await Promise.all(
    builder.nodes.map(async (node, i) => {
      const el = builder.elements[i];
      if (node.kind === 'pixels' && el !== undefined) {
        node.pixels = await pixelsOf(el, env.shadowOf(el)?.closed === true);
      }
    }),
  );

  const rules = readPageRules(doc, builder.shadowRoots, options.sheets ?? null);
  const captured = builder.nodes.flatMap((node, index) => {
    const el = builder.elements[index];
    return node.kind === 'gap' || el === undefined ? [] : [{ el, index }];
  });
  const { states, customProperties } = collectStates(rules, captured, hits.parentOf, root);
  for (const [index, list] of states) {
    const node = builder.nodes[index];
    if (node !== undefined) node.states = list;
  }
  const fonts = usedFonts(doc, builder.fontUses, rules.fontFaces);

  return {
    version: AREA_CAPTURE_VERSION,
    url: location.href,
    title: doc.title.slice(0, 1000),
    rect,
    scroll,
    viewport: { width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio },
    ...frame,
    root: 0,
    nodes: builder.nodes,
    custom_properties: Object.fromEntries(customProperties),
    fonts,
    resources: collectResourceRefs(builder.nodes, fonts),
    diagnostics: {
      elements_hit: hits.hits.size,
      gaps: builder.gaps,
      truncated: builder.truncated,
      unreadable_sheets: rules.unreadable,
      elapsed_ms: Math.round(performance.now() - started),
    },
  };
}

/** The canvas takes the root element's background, or the body's when the root has none. */
function canvasColor(doc: Document): string {
  const html = getComputedStyle(doc.documentElement).backgroundColor;
  if (!isTransparent(html)) return html;
  const body = doc.body === null ? 'transparent' : getComputedStyle(doc.body).backgroundColor;
  return isTransparent(body) ? 'rgb(255, 255, 255)' : body;
}

function relative(el: Element, area: ViewRect): NodeRect {
  const r = el.getBoundingClientRect();
  return {
    x: round(r.left - area.left),
    y: round(r.top - area.top),
    width: round(r.width),
    height: round(r.height),
  };
}

/** Ancestors' own paint (backgrounds, borders, shadows), outermost first. */
function backdrop(
  doc: Document,
  ancestors: readonly Element[],
  builder: NodeBuilder,
  area: ViewRect,
  initial: ReadonlyMap<string, string>,
): BackdropLayer[] {
  const htmlTransparent = isTransparent(getComputedStyle(doc.documentElement).backgroundColor);
  const layers: BackdropLayer[] = [];
  for (const el of [...ancestors].reverse()) {
    const cs = builder.style(el);
    // The canvas already has this element's background (propagated from html, or body).
    const propagated = el === doc.documentElement || (el === doc.body && htmlTransparent);
    const styles: Record<string, string> = {};
    for (const name of BACKDROP_PROPERTIES) {
      if (propagated && name.startsWith('background')) continue;
      const value = cs.getPropertyValue(name);
      // Border colours are always explicit here: the layer's own colour is not the element's.
      if (value !== '' && (value !== initial.get(name) || name.endsWith('-color'))) styles[name] = value;
    }
    for (const side of ['top', 'right', 'bottom', 'left']) {
      if ((styles[`border-${side}-style`] ?? 'none') !== 'none') continue;
      delete styles[`border-${side}-color`];
      delete styles[`border-${side}-width`];
    }
    const paints =
      !isTransparent(styles['background-color'] ?? 'transparent') ||
      (styles['background-image'] ?? 'none') !== 'none' ||
      (styles['box-shadow'] ?? 'none') !== 'none' ||
      ['top', 'right', 'bottom', 'left'].some((s) => (styles[`border-${s}-style`] ?? 'none') !== 'none');
    if (paints) layers.push({ tag: el.localName, rect: relative(el, area), styles });
  }
  return layers;
}

/** The intersection of the ancestors' overflow clips, relative to the area (null: none clips). */
function ancestorClip(
  doc: Document,
  ancestors: readonly Element[],
  builder: NodeBuilder,
  area: ViewRect,
): NodeRect | null {
  let clip: ViewRect = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
  let clipped = false;
  for (const el of ancestors) {
    // Overflow on html, and on body, applies to the viewport, not to their boxes.
    if (el === doc.documentElement || el === doc.body) continue;
    const cs = builder.style(el);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const r = el.getBoundingClientRect();
    const bl = Number.parseFloat(cs.borderLeftWidth) || 0;
    const bt = Number.parseFloat(cs.borderTopWidth) || 0;
    const br = Number.parseFloat(cs.borderRightWidth) || 0;
    const bb = Number.parseFloat(cs.borderBottomWidth) || 0;
    if (cs.overflowX !== 'visible') {
      clip = { ...clip, left: Math.max(clip.left, r.left + bl), right: Math.min(clip.right, r.right - br) };
    }
    if (cs.overflowY !== 'visible') {
      clip = { ...clip, top: Math.max(clip.top, r.top + bt), bottom: Math.min(clip.bottom, r.bottom - bb) };
    }
    clipped = true;
  }
  if (!clipped) return null;
  const left = Math.max(clip.left, area.left);
  const top = Math.max(clip.top, area.top);
  const right = Math.min(clip.right, area.right);
  const bottom = Math.min(clip.bottom, area.bottom);
  if (left <= area.left && top <= area.top && right >= area.right && bottom >= area.bottom) return null;
  return {
    x: round(left - area.left),
    y: round(top - area.top),
    width: round(Math.max(0, right - left)),
    height: round(Math.max(0, bottom - top)),
  };
}
