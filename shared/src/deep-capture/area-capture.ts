import { z } from 'zod';
import { AREA_CAPTURE_LIMITS, AREA_CAPTURE_VERSION } from './limits.js';

/**
 * What the in-page deep-capture engine (extension/src/content/deep-capture/) reads from an area
 * of a live page: the wire shape from the page to the worker and on to the host, which turns it
 * into `referenced-elements.json` 3.0 (./referenced-elements.ts) and the standalone clone
 * (./clone/). Browser-safe; the engine imports only the types, so its bundle carries no zod.
 *
 * The tree is flat: `nodes[i].children` holds node indices and text runs in document order, and
 * `root` is the nearest common ancestor of everything the area shows. Geometry is CSS px relative
 * to the area's top-left. Styles are computed values reduced to what differs from CSS initial
 * values (non-inherited properties) or from the clone parent (inherited ones): see
 * extension/src/content/deep-capture/reduce.ts for why that is exact.
 */

export { AREA_CAPTURE_LIMITS, AREA_CAPTURE_VERSION } from './limits.js';

const finite = () => z.number().finite();

export const CaptureRect = z.object({
  x: finite(),
  y: finite(),
  width: finite().positive(),
  height: finite().positive(),
});
export type CaptureRect = z.infer<typeof CaptureRect>;

/** A box that may be empty (an element's border box). */
export const NodeRect = z.object({
  x: finite(),
  y: finite(),
  width: finite().nonnegative(),
  height: finite().nonnegative(),
});
export type NodeRect = z.infer<typeof NodeRect>;

/** `{property: value}` in CSS text, e.g. `{"margin-top": "12px"}`. */
export const StyleMap = z.record(z.string().max(100), z.string().max(AREA_CAPTURE_LIMITS.styleValue));
export type StyleMap = z.infer<typeof StyleMap>;

export const PseudoName = z.enum(['before', 'after', 'marker', 'placeholder', 'first-letter', 'first-line']);
export type PseudoName = z.infer<typeof PseudoName>;

export const InteractionState = z.enum(['hover', 'focus', 'focus-visible', 'focus-within', 'active']);
export type InteractionState = z.infer<typeof InteractionState>;

/**
 * Declarations the page's stylesheets apply when `target` (this node or one of its ancestors in
 * the capture) is in `state`, e.g. `.card:hover .title {color: …}` on the title with the card as
 * target. Values are as the stylesheet wrote them, `var()` resolved on this node.
 */
export const StateStyle = z.object({
  state: InteractionState,
  target: z.number().int().nonnegative(),
  pseudo: z.enum(['before', 'after']).nullable(),
  styles: StyleMap,
});
export type StateStyle = z.infer<typeof StateStyle>;

/** A text run (a DOM text node; whitespace already collapsed where the CSS collapses it). */
export const TextChild = z.object({ text: z.string().max(AREA_CAPTURE_LIMITS.textRun) });
export type TextChild = z.infer<typeof TextChild>;

export const NodeChild = z.union([z.number().int().nonnegative(), TextChild]);
export type NodeChild = z.infer<typeof NodeChild>;

/**
 * - `element`: an HTML element, rebuilt with its children.
 * - `gap`: a sibling outside the area kept only for the space it takes (no content, not painted),
 *   so the layout of what the area shows is unchanged.
 * - `svg`: inline SVG, kept as sanitized markup in `svg` with computed paint styles inlined.
 * - `pixels`: something the DOM cannot rebuild (canvas, video, iframe, closed shadow root): an image
 *   of its pixels, from the DOM (`pixels.data_url`) or from the area's screenshot (`pixels.from_crop`).
 */
export const NodeKind = z.enum(['element', 'gap', 'svg', 'pixels']);
export type NodeKind = z.infer<typeof NodeKind>;

export const PixelSource = z.object({
  /** A `data:image/png` URL the DOM gave (canvas.toDataURL, a video frame); null when it could not. */
  data_url: z.string().max(AREA_CAPTURE_LIMITS.dataUrl).nullable(),
  /** True when the pixels must come from the area's screenshot (tainted canvas, cross-origin frame). */
  from_crop: z.boolean(),
  reason: z.string().max(200),
  /** Device pixels per CSS px of a cut from the screenshot (the clone draws it at that density). */
  scale: z.number().positive().default(1),
});
export type PixelSource = z.infer<typeof PixelSource>;

export const CaptureNode = z.object({
  kind: NodeKind,
  /** Lower-case local name as in the page (`div`, `my-card`, `svg`). */
  tag: z.string().min(1).max(100),
  parent: z.number().int().nonnegative().nullable(),
  children: z.array(NodeChild),
  classes: z.array(z.string().max(200)),
  role: z.string().max(100).nullable(),
  aria_label: z.string().max(1000).nullable(),
  /** The element's own visible text (its text runs, trimmed and capped), for readers of the data. */
  text: z.string().max(2000),
  /** Border box, relative to the area. */
  rect: NodeRect,
  /** Attributes the clone needs (allow-listed: alt, type, placeholder, colspan…); never values. */
  attrs: z.record(z.string().max(100), z.string().max(4096)),
  styles: StyleMap,
  pseudo: z.partialRecord(PseudoName, StyleMap),
  states: z.array(StateStyle),
  /** `img`: the source the browser chose (currentSrc: picture/srcset resolved), absolute. */
  image_src: z.string().max(AREA_CAPTURE_LIMITS.dataUrl).nullable(),
  /** `svg`: the sanitized markup. */
  svg: z.string().max(AREA_CAPTURE_LIMITS.svgMarkup).nullable(),
  pixels: PixelSource.nullable(),
  /** Open shadow root walked: the children are its flattened tree (slots resolved). */
  shadow: z.boolean(),
  /** A scroll container's scroll offset when it is not at its start, else null. */
  scroll: z.object({ x: finite(), y: finite() }).nullable(),
});
export type CaptureNode = z.infer<typeof CaptureNode>;

/** An ancestor of the root whose background or border shows behind the area. */
export const BackdropLayer = z.object({
  tag: z.string().max(100),
  rect: NodeRect,
  styles: StyleMap,
});
export type BackdropLayer = z.infer<typeof BackdropLayer>;

/** A web font face the area's text (or pseudo-element content) is rendered with. */
export const UsedFont = z.object({
  family: z.string().max(500),
  weight: z.string().max(50),
  style: z.string().max(50),
  stretch: z.string().max(50),
  unicode_range: z.string().max(4096),
  /** The face's source URL (absolute; the first url() with a format the browser loads), or null. */
  src: z.string().max(AREA_CAPTURE_LIMITS.dataUrl).nullable(),
  format: z.string().max(50).nullable(),
});
export type UsedFont = z.infer<typeof UsedFont>;

export const ResourceType = z.enum(['image', 'font', 'svg']);
export type ResourceType = z.infer<typeof ResourceType>;

/** A file the clone needs: fetched by the extension with the page's credentials (phase 2). */
export const ResourceRef = z.object({
  type: ResourceType,
  /** Absolute http(s), data: or blob: URL, exactly as it appears in `styles` / `image_src` / fonts. */
  url: z.string().min(1).max(AREA_CAPTURE_LIMITS.dataUrl),
  /** What uses it: `img`, `background-image`, `font-face`, `mask-image`, `svg-image`… */
  usage: z.array(z.string().max(100)),
  /** Nodes that use it (indices into `nodes`). */
  nodes: z.array(z.number().int().nonnegative()),
});
export type ResourceRef = z.infer<typeof ResourceRef>;

/**
 * How the page's document lays out: `BackCompat` is quirks mode (no doctype, or an old one),
 * which moves line boxes, table cells, image gaps and list indents. The clone writes the same
 * doctype, so it lays out in the same mode.
 */
export const DocumentMode = z.object({
  compat_mode: z.enum(['CSS1Compat', 'BackCompat']),
  /** The doctype as written in the page (`<!DOCTYPE …>`); null when the page has none. */
  doctype: z.string().max(1000).nullable(),
});
export type DocumentMode = z.infer<typeof DocumentMode>;

export const AreaCapture = z.object({
  version: z.literal(AREA_CAPTURE_VERSION),
  url: z.string().max(8192),
  title: z.string().max(1000),
  /** The area, CSS px, page coordinates. */
  rect: CaptureRect,
  /** Scroll position and viewport when the capture ran (the crop must be taken in the same state). */
  scroll: z.object({ x: finite(), y: finite() }),
  viewport: z.object({ width: finite(), height: finite(), dpr: finite().positive() }),
  /** Null when absent: captures staged before the mode was recorded (they lay out as standards). */
  document_mode: DocumentMode.nullable().default(null),
  /** The document canvas colour (html/body background after propagation), e.g. `rgb(255, 255, 255)`. */
  canvas_color: z.string().max(200),
  backdrop: z.array(BackdropLayer),
  /** Where ancestors of the root clip it (overflow), relative to the area; null when nothing does. */
  clip: NodeRect.nullable(),
  root: z.number().int().nonnegative(),
  nodes: z.array(CaptureNode).max(AREA_CAPTURE_LIMITS.nodes),
  /** Custom properties referenced (var()) by rules that style the captured elements, on the root. */
  custom_properties: z.record(z.string().max(200), z.string().max(AREA_CAPTURE_LIMITS.styleValue)),
  fonts: z.array(UsedFont),
  resources: z.array(ResourceRef),
  diagnostics: z.object({
    elements_hit: z.number().int().nonnegative(),
    gaps: z.number().int().nonnegative(),
    truncated: z.boolean(),
    /** Stylesheets the page could not read (cross-origin without CORS): their :hover etc. are missing. */
    unreadable_sheets: z.array(z.string().max(8192)),
    elapsed_ms: finite(),
  }),
});
export type AreaCapture = z.infer<typeof AreaCapture>;
