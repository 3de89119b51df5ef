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
        message: 'a staged capture takes no selector or rect',
      });
    return;
  }
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
