import { z } from 'zod';
import { StagedCaptureId } from './capture-area.js';

/**
 * Handled by the extension for `save_area`: fetches one resource of a captured area as the page
 * could (the browser's cookies only for the captured page's own host, never across a redirect;
 * `blob:` URLs inside the tab) and answers with its bytes. One resource per message keeps every message far under the native link's caps; the host
 * checks the bytes (type by content, size) before it writes anything.
 */
export const FETCH_RESOURCE = 'fetch_resource';

/** Largest resource the extension sends (the host's per-file cap). */
export const MAX_RESOURCE_BYTES = 8 * 1024 * 1024;

/** Largest total of resource bytes one area may add (the host's cap; the toolbar stages no more). */
export const MAX_AREA_RESOURCE_BYTES = 48 * 1024 * 1024;

/** Most resources one capture fetches: a page naming thousands of URLs gets no more requests. */
export const MAX_FETCHES_PER_CAPTURE = 200;

/** The order resources are fetched in under the cap: fonts first (few, and the text needs them). */
export function inFetchOrder<T extends { type: string }>(resources: readonly T[]): T[] {
  return [...resources].sort((a, b) => Number(a.type !== 'font') - Number(b.type !== 'font'));
}

export const FetchResourceParams = z
  .object({
    url: z.string().min(1).max(8192),
    /** The tab the area was captured in (for `blob:` URLs, which only it can read). */
    tab_id: z.number().int().nonnegative(),
    /** The captured page's URL: only requests to its own host carry the user's cookies. */
    page_url: z.string().max(8192).optional(),
    max_bytes: z.number().int().positive().max(MAX_RESOURCE_BYTES).default(MAX_RESOURCE_BYTES),
    /** The toolbar's staged capture the resource belongs to: answered from what was fetched then. */
    staged: StagedCaptureId.optional(),
  })
  .strict();
export type FetchResourceParams = z.infer<typeof FetchResourceParams>;

export const FetchResourceResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** Standard base64 of the body. */
    base64: z.string(),
    bytes: z.number().int().nonnegative(),
    content_type: z.string().nullable(),
  }),
  /** Why there are no bytes: an HTTP status, a network error, or over `max_bytes`. */
  z.object({ ok: z.literal(false), reason: z.string().max(500) }),
]);
export type FetchResourceResult = z.infer<typeof FetchResourceResult>;
