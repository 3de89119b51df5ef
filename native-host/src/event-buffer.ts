import { CAPTURE_EVENT_BUFFER, type CaptureEvent, CaptureEventType } from '#shared/capture-events.js';
import type { EventsSinceResult } from '#shared/commands/events-since.js';
import { CAPTURE_EVENT_DATA } from '#shared/toolbar-messages.js';

/**
 * The host's ring of recent capture events. MCP servers connect lazily (on a tool call), so the
 * host keeps what the designer did and numbers it; a client catches up with `events_since` after
 * the last seq it saw. Bounded: the oldest events fall out, and a client that asks for them learns
 * how many it missed.
 */
export class EventBuffer {
  private readonly ring: CaptureEvent[] = [];
  private lastSeq = 0;

  constructor(private readonly capacity = CAPTURE_EVENT_BUFFER) {}

  get last(): number {
    return this.lastSeq;
  }

  get size(): number {
    return this.ring.length;
  }

  /**
   * Validates an event from the extension and keeps it. Returns the stored event, or null when it
   * is not a capture event or its data does not match the event's schema (then nothing is kept).
   * Parsing with the event's schema also drops any key it does not know, image bytes included.
   */
  add(
    name: string,
    data: unknown,
    browserId: string | null,
    receivedAt: Date = new Date(),
  ): CaptureEvent | null {
    const type = CaptureEventType.safeParse(name);
    if (!type.success) return null;
    const parsed = CAPTURE_EVENT_DATA[type.data].safeParse(data);
    if (!parsed.success) return null;
    const { tab_id, page_url, at, ...rest } = parsed.data as Record<string, unknown> & {
      tab_id: number;
      page_url: string;
      at: string;
    };
    this.lastSeq += 1;
    const event: CaptureEvent = {
      seq: this.lastSeq,
      type: type.data,
      time: typeof at === 'string' && at !== '' ? at : receivedAt.toISOString(),
      browser_id: browserId,
      tab: { id: tab_id, url: page_url },
      data: rest,
    };
    this.ring.push(event);
    if (this.ring.length > this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
    return event;
  }

  /** Everything after `afterSeq`, oldest first, and how many of those are no longer kept. */
  since(afterSeq: number): EventsSinceResult {
    // A seq beyond ours is a client that saw an earlier host with the same name: start over.
    const after = afterSeq > this.lastSeq ? 0 : afterSeq;
    const events = this.ring.filter((e) => e.seq > after);
    const oldest = this.ring[0]?.seq ?? this.lastSeq + 1;
    const dropped = Math.max(0, oldest - after - 1);
    return { events, dropped, last_seq: this.lastSeq };
  }
}
