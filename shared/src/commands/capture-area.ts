import { z } from 'zod';
import { AreaCapture, CaptureRect } from '../deep-capture/area-capture.js';
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

export const AreaLocator = z
  .object({
    selector: z.string().min(1).max(4096).optional(),
    rect: CaptureRect.optional(),
  })
  .strict();

/** Exactly one of `selector` and `rect` (a VALIDATION_ERROR naming both fields otherwise). */
export function refineOneLocator(
  value: { selector?: string | undefined; rect?: unknown },
  ctx: z.RefinementCtx,
): void {
  const given = (value.selector !== undefined ? 1 : 0) + (value.rect !== undefined ? 1 : 0);
  if (given === 1) return;
  const message = given === 0 ? 'give selector or rect' : 'give selector or rect, not both';
  ctx.addIssue({ code: 'custom', path: [given === 0 ? 'selector' : 'rect'], message });
}

export const CaptureAreaParams = AreaLocator.extend({ target: TabTarget.default({}) })
  .strict()
  .superRefine(refineOneLocator);
export type CaptureAreaParams = z.infer<typeof CaptureAreaParams>;
export type CaptureAreaParamsInput = z.input<typeof CaptureAreaParams>;

export const CaptureAreaResult = z.object({
  capture: AreaCapture,
  /** Standard base64 of the area's PNG (device pixels: `scale` per CSS px). */
  png: z.string().min(1),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  scale: z.number().positive(),
  tab: TabRef,
  /** Where the extension's time went (ms), for the host's log. */
  timings: z.record(z.string(), z.number()).optional(),
});
export type CaptureAreaResult = z.infer<typeof CaptureAreaResult>;
