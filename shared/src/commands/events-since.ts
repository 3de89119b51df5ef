import { z } from 'zod';
import { CaptureEvent } from '../capture-events.js';

/**
 * Handled by the native host: the capture events it has buffered after `after_seq`, oldest first.
 * Hosts also push each event to connected bridge clients; a client uses this to catch up (on
 * connect, and after each push), so nothing is lost between tool calls or delivered twice.
 */
export const EVENTS_SINCE = 'events_since';

export const EventsSinceParams = z
  .object({
    after_seq: z.number().int().nonnegative().default(0),
  })
  .strict();
export type EventsSinceParams = z.infer<typeof EventsSinceParams>;

export const EventsSinceResult = z.object({
  events: z.array(CaptureEvent),
  /** Events after `after_seq` that fell out of the host's ring before they were asked for. */
  dropped: z.number().int().nonnegative(),
  /** The highest seq the host has assigned (0: none yet). */
  last_seq: z.number().int().nonnegative(),
});
export type EventsSinceResult = z.infer<typeof EventsSinceResult>;
