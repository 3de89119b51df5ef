import { z } from 'zod';
import { CAPTURE_EVENTS } from './toolbar-messages.js';

/**
 * Capture events as agents receive them (`wait_for_captures`) and as hosts keep them. The toolbar's
 * worker emits `event` envelopes named after CAPTURE_EVENTS (toolbar-messages.ts, whose per-event
 * data schemas carry no image bytes); each host numbers them with its own increasing `seq` and
 * keeps the latest ones in a bounded ring, so an MCP server that connects later still gets them.
 */

export const CaptureEventType = z.enum(CAPTURE_EVENTS);
export type CaptureEventType = z.infer<typeof CaptureEventType>;

/** How many events a host keeps, and an MCP server queues for its agent. */
export const CAPTURE_EVENT_BUFFER = 500;

export const CaptureEvent = z.object({
  /** Per host (i.e. per browser profile while its host lives), increasing from 1. */
  seq: z.number().int().positive(),
  type: CaptureEventType,
  /** When the designer did it (ISO 8601). */
  time: z.string(),
  browser_id: z.string().nullable(),
  tab: z.object({ id: z.number().int(), url: z.string() }),
  /** The event's data as the toolbar sent it (see CAPTURE_EVENT_DATA), never image bytes. */
  data: z.record(z.string(), z.unknown()),
});
export type CaptureEvent = z.infer<typeof CaptureEvent>;
