import { z } from 'zod';
import { AreaCapture, CaptureRect } from '../deep-capture/area-capture.js';
import { AREA_CAPTURE_LIMITS } from '../deep-capture/limits.js';
import { QueueClient, QueueReport } from './capture-queue.js';
import { TabRef, TabTarget } from './target.js';

/**
 * Handled by the extension for `save_area` (the host's side of the `capture_area` MCP tool): finds
 * the area (by selector, or a page rectangle), brings it into view without disturbing the page
 * (scroll and anything hidden are restored), runs the deep-capture engine in the tab and crops
 * the area from a screenshot. Pixels the DOM could not give (tainted canvases, frames, closed
 * shadow roots) are cut from that screenshot into their nodes' `pixels.data_url`, so the host
 * never decodes a PNG. Resources travel separately (`fetch_resource`), one per message.
 */
export const CAPTURE_AREA = 'capture_area';

/**
 * A deep capture the designer toolbar took and keeps in the extension until Save (its item key):
 * the host's `save_area` for the toolbar names it instead of a selector or rect, and the extension
 * answers `capture_area` and `fetch_resource` from what it stored at capture time.
 */
export const StagedCaptureId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/, 'an item key of the toolbar');

export const AreaLocator = z
  .object({
    selector: z.string().min(1).max(4096).optional(),
    rect: CaptureRect.optional(),
    staged: StagedCaptureId.optional(),
  })
  .strict();

/**
 * Exactly one of `selector` and `rect` (a VALIDATION_ERROR naming both fields otherwise), or a
 * `staged` capture with neither.
 */
export function refineOneLocator(
  value: { selector?: string | undefined; rect?: unknown; staged?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (value.staged !== undefined) {
    if (value.selector !== undefined || value.rect !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['staged'],
        message: 'no selector or rect with a staged capture',
      });
    return;
  }
  const given = (value.selector !== undefined ? 1 : 0) + (value.rect !== undefined ? 1 : 0);
  if (given === 1) return;
  ctx.addIssue({
    code: 'custom',
    path: [given === 0 ? 'selector' : 'rect'],
    message: 'exactly one of selector and rect',
    params: { received: given === 0 ? 'neither' : 'both' },
  });
}

export const CaptureAreaParams = AreaLocator.extend({
  target: TabTarget.default({}),
  /** Who asked (the host names its bridge client): captures take turns fairly between clients. */
  client: QueueClient.optional(),
})
  .strict()
  .superRefine(refineOneLocator);
export type CaptureAreaParams = z.infer<typeof CaptureAreaParams>;
export type CaptureAreaParamsInput = z.input<typeof CaptureAreaParams>;

/** Where the extension's time went (ms from the start of the capture), for the host's log. */
const Timings = z.record(z.string(), z.number());

/** The area's pixels: its PNG and what was cut from it for nodes the DOM could not give. */
const AreaPixelsFields = {
  /** Standard base64 of the area's PNG (device pixels: `scale` per CSS px). */
  png: z.string().min(1),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  scale: z.number().positive(),
  timings: Timings.optional(),
};

/** Everything at once: a capture the toolbar staged (its crop is already there). */
export const CaptureAreaResult = z.object({ capture: AreaCapture, tab: TabRef, ...AreaPixelsFields });
export type CaptureAreaResult = z.infer<typeof CaptureAreaResult>;

/** A ticket for pixels still being captured (`area_pixels` redeems it once). */
export const PixelsTicket = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/, 'a ticket from capture_area');

/**
 * A live capture answers as soon as the engine has read the area, while its screenshot bands
 * still wait for Chrome's capture quota (two a second): the host fetches the resources and
 * prepares the files meanwhile, then asks `area_pixels` for the rest. Nodes whose pixels come
 * from the screenshot have `pixels.data_url` null until then.
 */
export const CaptureAreaPending = z.object({
  capture: AreaCapture,
  tab: TabRef,
  pixels_ticket: PixelsTicket,
  timings: Timings.optional(),
  /** How long the capture waited for its window (other captures in it went first). */
  queue: QueueReport.optional(),
});
export type CaptureAreaPending = z.infer<typeof CaptureAreaPending>;

export const CaptureAreaAnswer = z.union([CaptureAreaResult, CaptureAreaPending]);
export type CaptureAreaAnswer = z.infer<typeof CaptureAreaAnswer>;

/** `area_pixels`: the pixels of a capture that answered with a ticket (see CaptureAreaPending). */
export const AREA_PIXELS = 'area_pixels';

export const AreaPixelsParams = z.object({ ticket: PixelsTicket }).strict();
export type AreaPixelsParams = z.infer<typeof AreaPixelsParams>;

/** A node's pixels cut from the screenshot (its `pixels.data_url` and `pixels.scale`). */
export const PixelCut = z.object({
  node: z.number().int().nonnegative(),
  data_url: z.string().max(AREA_CAPTURE_LIMITS.dataUrl),
  scale: z.number().positive(),
});
export type PixelCut = z.infer<typeof PixelCut>;

export const AreaPixelsResult = z.object({
  ...AreaPixelsFields,
  cuts: z.array(PixelCut).max(AREA_CAPTURE_LIMITS.nodes),
});
export type AreaPixelsResult = z.infer<typeof AreaPixelsResult>;

/** Puts cut pixels into their nodes (what the extension does itself when it answers at once). */
export function applyPixelCuts(capture: AreaCapture, cuts: readonly PixelCut[]): void {
  for (const cut of cuts) {
    const node = capture.nodes[cut.node];
    if (node?.pixels == null) continue;
    node.pixels = { ...node.pixels, data_url: cut.data_url, scale: cut.scale };
  }
}
