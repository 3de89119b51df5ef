import { z } from 'zod';
import { QueueClient } from './capture-queue.js';

/**
 * Handled by the extension for the host's `compare_with_reference` (DESIGN §8): opens a window of
 * its own for the render (unfocused, sized to the viewport, never the designer's), loads the
 * candidate from a loopback URL, waits for fonts and images as the capture does, shoots the region
 * (in bands when it is taller than the viewport), reads the region's rendered elements and closes
 * the window. The PNG is drawn at the reference's pixel size, so the host compares equal images.
 */
export const RENDER_CANDIDATE = 'render_candidate';

/**
 * What a loopback URL misses, or null: http(s) with the host exactly `localhost` or `127.0.0.1`
 * (parsed, so `localhost.evil.com`, `127.0.0.1@evil.com` and `http://localhost:80@x` are refused).
 */
export function loopbackUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'an absolute URL such as http://localhost:5173/';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'an http:// or https:// URL';
  if (url.username !== '' || url.password !== '') return 'a URL without user name or password';
  if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1')
    return 'a URL whose host is exactly localhost or 127.0.0.1 (a local dev server)';
  return null;
}

export const LoopbackUrl = z
  .string()
  .max(4096)
  .superRefine((value, ctx) => {
    const problem = loopbackUrlProblem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `must be ${problem}` });
  });

const Px = z.number().finite().nonnegative().max(100_000);

export const RenderCandidateParams = z
  .object({
    url: LoopbackUrl,
    /** CSS px; the window's viewport is made this wide. */
    viewport_width: z.number().int().min(100).max(4096),
    /**
     * CSS px; the reference's viewport height, so `vh` lengths and `100%`-tall pages lay out as
     * they did; null (a screenshot reference): the region's height.
     */
    viewport_height: z.number().int().min(100).max(8192).nullable().default(null),
    /** CSS px of the region to shoot (the reference's size). */
    width: z.number().positive().max(16_384),
    height: z.number().positive().max(32_768),
    /** The region's top-left is this element's border box; null: the page's top-left. */
    selector: z.string().min(1).max(4096).nullable().default(null),
    /** Device px of the PNG answered (the reference's). */
    out_width: z.number().int().positive().max(16_384),
    out_height: z.number().int().positive().max(32_768),
    timeout_ms: z.number().int().positive().max(600_000).default(30_000),
    /** Who asked (the host names its bridge client): the shot takes its turn in the capture queue. */
    client: QueueClient.optional(),
  })
  .strict();
export type RenderCandidateParams = z.infer<typeof RenderCandidateParams>;
export type RenderCandidateParamsInput = z.input<typeof RenderCandidateParams>;

export const ElementBox = z.object({ x: z.number().finite(), y: z.number().finite(), width: Px, height: Px });
export type ElementBox = z.infer<typeof ElementBox>;

/** One rendered element of the candidate's region (box relative to the region's top-left). */
export const RenderedElement = z.object({
  tag: z.string().min(1).max(100),
  /** Own visible text, whitespace collapsed and capped. */
  text: z.string().max(500),
  /** A short selector naming it in the candidate (`.hero h1`, `#buy`, `main > p:nth-of-type(2)`). */
  selector: z.string().max(300),
  rect: ElementBox,
  /** Index of the nearest listed ancestor, or null. */
  parent: z.number().int().nonnegative().nullable(),
  /** Computed values of the properties a designer compares (verify/style-keys.ts). */
  styles: z.record(z.string().max(60), z.string().max(300)),
});
export type RenderedElement = z.infer<typeof RenderedElement>;

export const RenderCandidateResult = z.object({
  /** Standard base64 of the region's PNG, `out_width`×`out_height`. */
  png: z.string().min(1),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** The render window's tab (closed by the time the answer arrives). */
  tab_id: z.number().int(),
  /** The render window's devicePixelRatio. */
  dpr: z.number().positive(),
  /** The viewport the candidate was laid out in (CSS px). */
  viewport: z.object({ width: z.number(), height: z.number() }),
  /** The region in page CSS px. */
  region: ElementBox,
  elements: z.array(RenderedElement).max(3000),
  /** Said plainly for the answer, e.g. a DPR that could not be reproduced. */
  notes: z.array(z.string().max(500)).max(10),
  timings: z.record(z.string(), z.number()).optional(),
});
export type RenderCandidateResult = z.infer<typeof RenderCandidateResult>;
