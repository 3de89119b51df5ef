import type { EventStore, JSONRPCMessage } from '../sdk.js';

/**
 * The events of one HTTP session, kept briefly so a client whose SSE stream broke can resume with
 * `Last-Event-ID` (Streamable HTTP resumability). Having a store is also what makes the SDK send
 * the priming event (an id and the `retry` field, protocol 2025-11-25) the spec recommends.
 * Bounded in count and bytes: an old event falls out first, and resuming from it is refused.
 */
export class MemoryEventStore implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage; bytes: number }>();
  private bytes = 0;
  private next = 0;

  constructor(
    private readonly limits: { maxEvents: number; maxBytes: number } = { maxEvents: 256, maxBytes: 4 << 20 },
  ) {}

  get size(): number {
    return this.events.size;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.next += 1;
    const eventId = `${streamId}_${this.next}`;
    const bytes = JSON.stringify(message).length;
    this.events.set(eventId, { streamId, message, bytes });
    this.bytes += bytes;
    for (const [id, event] of this.events) {
      if (this.events.size <= this.limits.maxEvents && this.bytes <= this.limits.maxBytes) break;
      if (id === eventId) break; // the newest always stays, whatever its size
      this.events.delete(id);
      this.bytes -= event.bytes;
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.get(lastEventId);
    if (last === undefined) throw new Error(`event ${lastEventId} is no longer kept; start a new request`);
    let after = false;
    for (const [id, event] of this.events) {
      if (id === lastEventId) after = true;
      // An empty priming event carries no message; it only marks the stream's start.
      else if (after && event.streamId === last.streamId && 'jsonrpc' in event.message)
        await send(id, event.message);
    }
    return last.streamId;
  }
}
