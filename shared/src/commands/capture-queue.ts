import { z } from 'zod';

/**
 * The extension's one capture queue (extension/src/background/capture/scheduler.ts): captures
 * that need a window's visible tab take turns, one job per window. These are the parts of the
 * contract that say where a capture stood: how long it waited (in its answer), and the queue as
 * it is now (bridge_status).
 */

/** Who asked, for taking turns fairly: the host names the bridge client; at most this long. */
export const QueueClient = z.string().min(1).max(120);

/** In a capture's answer: how long it waited for its window, and behind which captures. */
export const QueueReport = z.object({
  queued_ms: z.number().int().nonnegative(),
  /** The captures that went first, as "capture_area of tab 5 (client)"; empty when it did not wait. */
  waited_for: z.array(z.string().max(400)).max(100),
});
export type QueueReport = z.infer<typeof QueueReport>;

/** One job in the queue as bridge_status lists it. */
export const QueueEntry = z.object({
  window_id: z.number().int(),
  tab_id: z.number().int(),
  label: z.string().max(200),
  client: z.string().max(120),
  state: z.enum(['running', 'waiting']),
  /** ms since it started (running) or was queued (waiting). */
  for_ms: z.number().int().nonnegative(),
});
export type QueueEntry = z.infer<typeof QueueEntry>;

/** The event the extension sends the host whenever the queue changes (kept for host_status). */
export const CAPTURE_QUEUE_EVENT = 'capture_queue';
export const CaptureQueueSnapshot = z.object({ jobs: z.array(QueueEntry).max(200) });
export type CaptureQueueSnapshot = z.infer<typeof CaptureQueueSnapshot>;

/**
 * How long a capture may wait for its window before the extension gives up with TIMEOUT naming
 * what held it. Every hop pauses its own time limit for a request the extension says is queued
 * (a `progress` envelope), and only this, plus a margin, bounds that pause.
 */
export const QUEUE_WAIT_LIMIT_MS = 300_000;
export const QUEUE_WAIT_MARGIN_MS = 10_000;

/** "queued behind 2 captures". */
export function queuedBehind(count: number): string {
  return `queued behind ${count} capture${count === 1 ? '' : 's'}`;
}

/** What an agent's answer says of the wait: `queued_ms`, and "queued behind 2 captures: …" when it waited. */
export const QueueFields = {
  queued_ms: z.number().int().nonnegative().optional(),
  queued_behind: z.string().optional(),
};

export function queueFields(report: QueueReport | undefined): { queued_ms?: number; queued_behind?: string } {
  if (report === undefined) return {};
  const { queued_ms, waited_for } = report;
  if (waited_for.length === 0) return { queued_ms };
  return { queued_ms, queued_behind: `${queuedBehind(waited_for.length)}: ${waited_for.join('; ')}` };
}
