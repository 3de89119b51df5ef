import type { AreaCapture, CaptureRect, DocumentMode, NodeRect } from '#shared/deep-capture/area-capture.js';
import { AREA_CAPTURE_VERSION } from '#shared/deep-capture/limits.js';
import { collectResourceRefs } from '#shared/deep-capture/resource-refs.js';
import { ancestorsOf, browserTreeEnv, collectHits, findRoot, type ViewRect } from './area-tree.js';
import { backdrop, canvasColor } from './backdrop.js';
import { BASELINE_PROBE_TAG, measureBaseline } from './baseline.js';
import { usedFonts } from './fonts.js';
import { collapsedTopChain, layoutBox, round } from './geometry.js';
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
  for (const el of collapsedTopChain(root, (e) => builder.style(e))) {
    const index = builder.index(el);
    if (index !== undefined) delete builder.nodes[index]?.styles['margin-top'];
  }
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
    backdrop: backdrop(doc, ancestors, (el) => builder.style(el), area, baseline.initial),
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
    document_mode: documentMode(doc),
    ...frame,
    root: 0,
    nodes: builder.nodes,
    custom_properties: Object.fromEntries(customProperties),
    fonts,
    resources: collectResourceRefs(builder.nodes, fonts, frame.backdrop),
    diagnostics: {
      elements_hit: hits.hits.size,
      gaps: builder.gaps,
      truncated: builder.truncated,
      unreadable_sheets: rules.unreadable,
      elapsed_ms: Math.round(performance.now() - started),
    },
  };
}

/** Quirks or standards, and the doctype as the page wrote it (the clone writes the same). */
function documentMode(doc: Document): DocumentMode {
  const dt = doc.doctype;
  let doctype: string | null = null;
  if (dt !== null) {
    doctype = `<!DOCTYPE ${dt.name}`;
    if (dt.publicId !== '')
      doctype += ` PUBLIC "${dt.publicId}"${dt.systemId !== '' ? ` "${dt.systemId}"` : ''}`;
    else if (dt.systemId !== '') doctype += ` SYSTEM "${dt.systemId}"`;
    doctype = `${doctype}>`.slice(0, 1000);
  }
  return { compat_mode: doc.compatMode === 'BackCompat' ? 'BackCompat' : 'CSS1Compat', doctype };
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
