// Over 350 lines on purpose: the whole toolbar ↔ worker contract (every message and its result) in one file.
import * as z from 'zod/mini';
import type { $ZodShape } from 'zod/v4/core';
import { COLOR_ROLES } from './design-tokens.js';

export type { ColorRole } from './design-tokens.js';

/**
 * Runtime messages between the designer toolbar (content script, isolated world) and the service
 * worker, plus the capture events the worker forwards to the host. The single source of truth:
 * both sides parse with these schemas before using a message.
 *
 * Written with `zod/mini` so the toolbar bundle stays small (the full zod adds ~20 KB gzip to a
 * script injected into every page the designer opens). Mini and classic schemas compose, so the
 * worker and the host can embed these in classic schemas.
 */

const finite = () => z.number().check(z.refine(Number.isFinite, 'a finite number'));
const shortText = (max: number) => z.string().check(z.maxLength(max));

/** Prefix of every toolbar message type, so the worker can ignore other runtime messages fast. */
export const TOOLBAR_MESSAGE_PREFIX = 'xipe-toolbar:';

export const CssRect = z.object({ x: finite(), y: finite(), width: finite(), height: finite() });
export type CssRect = z.infer<typeof CssRect>;

/** The visible viewport (CSS px, without scrollbars) and the page's device pixel ratio. */
export const ViewportInfo = z.object({
  width: z.number().check(z.positive()),
  height: z.number().check(z.positive()),
  dpr: z.number().check(z.positive()),
});
export type ViewportInfo = z.infer<typeof ViewportInfo>;

/** The one list of roles (design-tokens.ts) as a schema. */
const ColorRoleSchema = z.enum(COLOR_ROLES);

export const CaptureKind = z.enum(['element', 'area', 'full_page']);
export type CaptureKind = z.infer<typeof CaptureKind>;

/** Computed styles a designer cares about, as CSS strings (font-family, color, padding, …). */
export const DesignerStyles = z.record(shortText(64), shortText(1024));
export type DesignerStyles = z.infer<typeof DesignerStyles>;

export const Typography = z.object({
  heading_font: z.optional(shortText(512)),
  body_font: z.optional(shortText(512)),
  /** e.g. "16px" */
  base_size: z.optional(shortText(32)),
});
export type Typography = z.infer<typeof Typography>;

/** What the toolbar knows about an element, area or full page before the worker adds the crop. */
export const ElementDraft = z.object({
  kind: CaptureKind,
  selector: shortText(4096).check(z.minLength(1)),
  tag: shortText(100).check(z.minLength(1)),
  /** Page coordinates (CSS px, relative to the document, not the viewport). */
  bounding_box: CssRect,
  styles: z.optional(DesignerStyles),
  /** The first words of the element's text, to recognise it in the list. */
  text: z.optional(shortText(200)),
  /** What a designer calls it ("Button 'Start free'", "Card 2 of 3 'Pro'"): the list's headline. */
  label: z.optional(shortText(200)),
  comment: z.optional(shortText(65_536)),
  page_url: shortText(8192),
  /** Set for full-page shots taller than the cap. */
  capped_at: z.optional(z.number()),
});
export type ElementDraft = z.infer<typeof ElementDraft>;

export const ColorDraft = z.object({
  hex: z.string().check(z.regex(/^#[0-9a-f]{6}$/)),
  rgb: shortText(32),
  hsl: shortText(32),
  role: ColorRoleSchema,
  source_selector: z.optional(shortText(4096)),
  /** Where it was seen: "background of nav.top", "text of h1" … */
  context: z.optional(shortText(1024)),
  /** The contrast pair when the colour was picked as text over a background. */
  contrast: z.optional(z.object({ against: z.string(), ratio: z.number(), rating: shortText(16) })),
  page_url: shortText(8192),
});
export type ColorDraft = z.infer<typeof ColorDraft>;

const count = () => z.number().check(z.int(), z.minimum(0));

/**
 * An item's deep capture (docs/design.md §7), staged in the worker until Save: what the panel shows. The
 * engine's reading and the fetched fonts and images stay in extension storage beside the crop.
 */
export const DeepSummary = z.object({
  /** What the agent should do with the area: the area's `instruction` in referenced-elements.json. */
  instruction: shortText(65_536),
  /** Elements of the area as referenced-elements.json lists them. */
  element_count: count(),
  /** Fonts and images the clone needs that were fetched (or inline) and staged. */
  resource_count: count(),
  /** Resources that could not be fetched (the clone shows nothing in their place). */
  skipped_count: count(),
  elapsed_ms: z.number(),
  /**
   * Where a Save wrote the area, so that a Save retried after a later step failed replaces it there
   * instead of adding another.
   */
  saved: z.optional(
    z.object({ workspace: z.optional(z.string()), idea_folder: z.string(), area_id: shortText(32) }),
  ),
});
export type DeepSummary = z.infer<typeof DeepSummary>;

/** A collected item as the worker stores it; the crop bytes live in storage under their own key. */
export const CollectedElement = z.extend(ElementDraft, {
  key: shortText(64),
  created_at: z.string(),
  crop: z.nullable(z.object({ width: z.number(), height: z.number() })),
  deep: z.optional(DeepSummary),
});
export type CollectedElement = z.infer<typeof CollectedElement>;

export const CollectedColor = z.extend(ColorDraft, { key: shortText(64), created_at: z.string() });
export type CollectedColor = z.infer<typeof CollectedColor>;

export const Collection = z.object({
  source_url: z.string(),
  started_at: z.string(),
  elements: z.array(CollectedElement),
  colors: z.array(CollectedColor),
  typography: Typography,
  /** Where the last save went, so the picker starts there. */
  last_target: z.optional(z.object({ workspace: z.optional(z.string()), idea_folder: z.string() })),
});
export type Collection = z.infer<typeof Collection>;

// ── requests: toolbar → worker ─────────────────────────────────────────────────────────────────

const msg = <T extends string, S extends $ZodShape>(type: T, shape: S) =>
  z.object({ type: z.literal(`${TOOLBAR_MESSAGE_PREFIX}${type}` as `xipe-toolbar:${T}`), ...shape });

export const GetStateRequest = msg('get_state', {
  page_url: z.string(),
  typography: z.optional(Typography),
});
export const CaptureElementRequest = msg('capture_element', {
  draft: ElementDraft,
  /** The crop in viewport CSS px at the time of the capture (the toolbar's UI is hidden). */
  crop: CssRect,
  viewport: ViewportInfo,
});
export const AddColorRequest = msg('add_color', { draft: ColorDraft });
export const UpdateItemRequest = msg('update_item', {
  key: shortText(64),
  comment: z.optional(z.nullable(shortText(65_536))),
  role: z.optional(ColorRoleSchema),
  /** A deep capture's instruction. */
  instruction: z.optional(shortText(65_536)),
});
/** What an update_item request changes. */
export type ItemChange = Omit<z.infer<typeof UpdateItemRequest>, 'type' | 'key'>;
/**
 * Deep capture of an item just captured (its crop is the area's screenshot): the engine reads the
 * page at `rect`, the worker fetches the fonts and images, and all of it is staged with the item.
 */
export const DeepCaptureRequest = msg('deep_capture', {
  key: shortText(64),
  /** The crop's rectangle in page coordinates (CSS px). */
  rect: CssRect,
  instruction: shortText(65_536),
});
export const RemoveItemRequest = msg('remove_item', { key: shortText(64) });
export const GetCropRequest = msg('get_crop', { key: shortText(64) });
export const FullPageBeginRequest = msg('full_page_begin', {
  width: z.number().check(z.positive()),
  height: z.number().check(z.positive()),
  viewport: ViewportInfo,
  /** Left edge of the stitched stretch in the viewport (CSS px): an element's; 0 for the page. */
  left: z.optional(z.number().check(z.minimum(0))),
});
export const FullPageBandRequest = msg('full_page_band', {
  job: shortText(64),
  src_y: finite(),
  height: z.number().check(z.positive()),
  dest_y: finite(),
  viewport: ViewportInfo,
  /**
   * The marker the page painted, in the same frame as the scroll, in a viewport strip the band
   * does not use (extension/src/geometry/band-marker.ts): the band is stitched only when the
   * capture shows it.
   */
  marker: z.optional(
    z.object({
      y: finite(),
      code: z.number().check(z.int(), z.minimum(0), z.maximum(255)),
    }),
  ),
  /**
   * With a marker: the band's index in the plan. The worker then answers as soon as the frame is
   * taken, and checks the marker behind while the page scrolls on; `full_page_settle` lists the
   * steps to take again.
   */
  step: z.optional(z.number().check(z.int(), z.minimum(0))),
});
/** Waits for the bands checked behind their answers; lists the steps whose capture was stale. */
export const FullPageSettleRequest = msg('full_page_settle', { job: shortText(64) });
export const FullPageEndRequest = msg('full_page_end', {
  job: shortText(64),
  /** Absent: the job is abandoned (the user cancelled or a band failed). */
  draft: z.optional(ElementDraft),
});
/** Where the designer put the toolbar panel: its distance from the nearest side each way (CSS px). */
export const PanelSpot = z.object({
  h: z.enum(['left', 'right']),
  x: z.number().check(z.minimum(0), z.maximum(100_000)),
  v: z.enum(['top', 'bottom']),
  y: z.number().check(z.minimum(0), z.maximum(100_000)),
});
export type PanelSpot = z.infer<typeof PanelSpot>;
/** Reads the remembered panel spot; with `spot`, remembers that one first. */
export const PanelSpotRequest = msg('panel_spot', { spot: z.optional(PanelSpot) });

/**
 * Element mode, the pointer resting on an element: capture the viewport now if that delays no
 * other capture, for an instant preview on the press.
 */
export const RestFrameRequest = msg('rest_frame', { viewport: ViewportInfo });
/** The press, nothing changed since the rest frame: a thumbnail of `crop` cut from it. */
export const PreviewRequest = msg('preview', { frame: shortText(64), crop: CssRect });

/** Colour mode: the pixels of a viewport rectangle (the toolbar is hidden while they are captured). */
export const SampleRequest = msg('sample', { crop: CssRect, viewport: ViewportInfo });
/**
 * The toolbar's turn in its window's capture queue (agents' captures take turns with it): `hold`
 * answers once the window is free (the status line says meanwhile that it waits for an agent's
 * capture), and the toolbar's captures run in that turn until it sends `hold: false`. A turn not
 * used for a while is given up by the worker, so a page that goes away holds nothing.
 */
export const TurnRequest = msg('turn', { hold: z.boolean() });
export const ListIdeasRequest = msg('list_ideas', { workspace: z.optional(shortText(4096)) });
export const SaveRequest = msg('save', {
  workspace: z.optional(shortText(4096)),
  idea_folder: shortText(255).check(z.minLength(1)),
});
export const ClearRequest = msg('clear', {});

// The verify loop's designer side (views/verify-view.ts): an area's screenshot over the page, and
// the host's comparison of the page with it.
const IdeaRef = {
  workspace: z.optional(shortText(4096)),
  idea_folder: shortText(255).check(z.minLength(1)),
};
const AreaIdText = shortText(32).check(z.regex(/^area-\d+$/));
/** The idea's deep-captured areas, for the overlay's choice. */
export const VerifyAreasRequest = msg('verify_areas', IdeaRef);
/** One area's screenshot, read by the host (the page never gets a path or URL to it). */
export const AreaImageRequest = msg('area_image', { ...IdeaRef, area_id: AreaIdText });
/** Compare this tab's page (a local dev server's) with the area, as `compare_with_reference` does. */
export const CompareRequest = msg('compare', {
  ...IdeaRef,
  area_id: AreaIdText,
  /** The element holding the rebuilt area (the overlay's lock); absent: the page's top-left. */
  selector: z.optional(shortText(4096).check(z.minLength(1))),
});

export const ToolbarRequest = z.discriminatedUnion('type', [
  GetStateRequest,
  CaptureElementRequest,
  AddColorRequest,
  UpdateItemRequest,
  DeepCaptureRequest,
  RemoveItemRequest,
  GetCropRequest,
  FullPageBeginRequest,
  FullPageBandRequest,
  FullPageSettleRequest,
  FullPageEndRequest,
  SampleRequest,
  RestFrameRequest,
  PreviewRequest,
  PanelSpotRequest,
  TurnRequest,
  ListIdeasRequest,
  SaveRequest,
  ClearRequest,
  VerifyAreasRequest,
  AreaImageRequest,
  CompareRequest,
]);
export type ToolbarRequest = z.infer<typeof ToolbarRequest>;
export type ToolbarRequestType = ToolbarRequest['type'];

// ── results: worker → toolbar ──────────────────────────────────────────────────────────────────

export const ToolbarState = z.object({
  collection: Collection,
  host_connected: z.boolean(),
});
export type ToolbarState = z.infer<typeof ToolbarState>;

export const IdeasListing = z.object({
  workspaces: z.array(
    z.object({
      path: z.string(),
      ideas: z.array(z.object({ name: z.string(), has_references: z.boolean(), session_count: z.number() })),
    }),
  ),
});
export type IdeasListing = z.infer<typeof IdeasListing>;

export const SaveOutcome = z.object({
  session_number: z.number(),
  session_file: z.string(),
  session_path: z.string(),
  reference_data_path: z.string(),
  screenshots: z.array(z.string()),
  idea_folder: z.string(),
  workspace: z.string(),
  tokens_path: z.optional(z.nullable(z.string())),
});
export type SaveOutcome = z.infer<typeof SaveOutcome>;

export const VerifyAreas = z.object({
  areas: z.array(
    z.object({
      area_id: z.string(),
      width: z.number(),
      height: z.number(),
      instruction: z.nullable(z.string()),
    }),
  ),
});
export type VerifyAreas = z.infer<typeof VerifyAreas>;

/** An area's screenshot: shown at its CSS size, so one image pixel is one device pixel at its DPR. */
export const AreaImage = z.object({
  data_url: z.string().check(z.startsWith('data:image/png;base64,')),
  width: z.number().check(z.positive()),
  height: z.number().check(z.positive()),
  css_width: z.number().check(z.positive()),
  css_height: z.number().check(z.positive()),
});
export type AreaImage = z.infer<typeof AreaImage>;

export const CompareOutcome = z.object({
  scores: z.record(z.string(), z.nullable(z.number())),
  differences: z.array(z.string()),
  difference_count: z.number(),
  notes: z.array(z.string()),
  /** Absolute path of report.md, for the designer to open. */
  report: z.string(),
});
export type CompareOutcome = z.infer<typeof CompareOutcome>;

/** The result schema of each request type, so the toolbar parses what the worker answers. */
export const TOOLBAR_RESULTS = {
  'xipe-toolbar:get_state': ToolbarState,
  'xipe-toolbar:capture_element': CollectedElement,
  'xipe-toolbar:add_color': CollectedColor,
  'xipe-toolbar:update_item': Collection,
  'xipe-toolbar:deep_capture': CollectedElement,
  'xipe-toolbar:remove_item': Collection,
  'xipe-toolbar:get_crop': z.object({ data_url: z.nullable(z.string()) }),
  'xipe-toolbar:full_page_begin': z.object({ job: z.string() }),
  /** `stale`: the capture did not show the band's marker (an older frame); nothing was stitched. */
  'xipe-toolbar:full_page_band': z.object({ done: z.number(), stale: z.boolean() }),
  /** Steps (as sent with their bands) whose capture did not show their marker, in order. */
  'xipe-toolbar:full_page_settle': z.object({ stale: z.array(z.number()) }),
  'xipe-toolbar:full_page_end': z.nullable(CollectedElement),
  /** A PNG of the rectangle's device pixels; null when none of it is visible. */
  'xipe-toolbar:sample': z.nullable(
    z.object({ data_url: z.string(), width: z.number(), height: z.number() }),
  ),
  'xipe-toolbar:panel_spot': z.nullable(PanelSpot),
  /** How long the turn waited for agents' captures (0 when `hold` is false). */
  'xipe-toolbar:turn': z.object({ queued_ms: z.number() }),
  'xipe-toolbar:rest_frame': z.object({ frame: z.nullable(z.string()) }),
  'xipe-toolbar:preview': z.object({ data_url: z.nullable(z.string()) }),
  'xipe-toolbar:list_ideas': IdeasListing,
  'xipe-toolbar:save': SaveOutcome,
  'xipe-toolbar:clear': Collection,
  'xipe-toolbar:verify_areas': VerifyAreas,
  'xipe-toolbar:area_image': AreaImage,
  'xipe-toolbar:compare': CompareOutcome,
} as const satisfies Record<ToolbarRequestType, z.ZodMiniType>;

export type ToolbarResult<T extends ToolbarRequestType> = z.infer<(typeof TOOLBAR_RESULTS)[T]>;

export const ToolbarError = z.object({
  code: z.string(),
  message: z.string(),
  details: z.optional(z.record(z.string(), z.unknown())),
});
export type ToolbarError = z.infer<typeof ToolbarError>;

/** Every answer is one of these; `result` is parsed again with TOOLBAR_RESULTS[type]. */
export const ToolbarResponse = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: ToolbarError }),
]);
export type ToolbarResponse = z.infer<typeof ToolbarResponse>;

// ── capture events: worker → host → MCP clients (for wait_for_captures) ─────────────────────────

export const CAPTURE_EVENTS = [
  'element_picked',
  'area_picked',
  'color_picked',
  'note_added',
  'session_saved',
  'deep_capture_saved',
  'verify_report_saved',
] as const;
export type CaptureEventName = (typeof CAPTURE_EVENTS)[number];

const eventBase = { tab_id: z.number(), page_url: z.string(), at: z.string() };

/** Screenshot bytes never travel in events; they are written to disk by the save. */
export const ElementPickedData = z.object({
  ...eventBase,
  key: z.string(),
  kind: CaptureKind,
  selector: z.string(),
  tag: z.string(),
  bounding_box: CssRect,
  styles: z.optional(DesignerStyles),
  crop: z.nullable(z.object({ width: z.number(), height: z.number() })),
});
export const ColorPickedData = z.object({
  ...eventBase,
  key: z.string(),
  hex: z.string(),
  rgb: z.string(),
  hsl: z.string(),
  role: ColorRoleSchema,
  source_selector: z.optional(z.string()),
});
export const NoteAddedData = z.object({ ...eventBase, key: z.string(), comment: z.nullable(z.string()) });
export const SessionSavedData = z.object({ ...eventBase, ...SaveOutcome.shape });
/** Emitted by the host when it has written a deep capture (`capture_area`, or a toolbar Save): where the files are. */
export const DeepCaptureSavedData = z.object({
  ...eventBase,
  idea_folder: z.string(),
  area_id: z.string(),
  element_count: z.number(),
  files: z.object({
    referenced_elements: z.string(),
    structure_html: z.string(),
    styles_css: z.string(),
    screenshot: z.string(),
    summary: z.optional(z.string()),
    tokens: z.optional(z.string()),
  }),
});

/** compare_with_reference wrote a report (tab: the render window's, closed by now; page_url: the candidate). */
export const VerifyReportSavedData = z.object({
  ...eventBase,
  idea_folder: z.string(),
  reference: z.string(),
  scores: z.record(z.string(), z.nullable(z.number())),
  files: z.object({
    report_json: z.string(),
    report_md: z.string(),
    diff: z.string(),
    candidate: z.string(),
  }),
});

export const CAPTURE_EVENT_DATA = {
  element_picked: ElementPickedData,
  area_picked: ElementPickedData,
  color_picked: ColorPickedData,
  note_added: NoteAddedData,
  session_saved: SessionSavedData,
  deep_capture_saved: DeepCaptureSavedData,
  verify_report_saved: VerifyReportSavedData,
} as const satisfies Record<CaptureEventName, z.ZodMiniType>;

export type CaptureEventData<E extends CaptureEventName> = z.infer<(typeof CAPTURE_EVENT_DATA)[E]>;
