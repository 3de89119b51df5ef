import type { Event } from '#shared/envelopes.js';
import type { Logger } from '#shared/node/logger.js';
import { CAPTURE_EVENTS } from '#shared/toolbar-messages.js';
import { EventBuffer } from './event-buffer.js';
import type { ClientPort } from './router-ports.js';

/**
 * The extension's events, to every authenticated bridge client. Capture events (what the designer
 * picked or saved) are validated, numbered and kept first, stripped to their schema so no image
 * bytes stay in memory, so that a client that connects later catches up with `events_since`;
 * other events are passed on as they are.
 */
export class EventBroadcast {
  /** Capture events, numbered, for `events_since`. */
  readonly events: EventBuffer;

  constructor(
    private readonly clients: () => Iterable<ClientPort>,
    private readonly logger: Logger,
    capacity?: number,
  ) {
    this.events = new EventBuffer(capacity);
  }

  /** One event from the extension (or recorded by a host handler); `browserId` is its browser's. */
  publish(envelope: Event, browserId: string | null): void {
    if (!(CAPTURE_EVENTS as readonly string[]).includes(envelope.event)) {
      this.send(envelope);
      return;
    }
    const stored = this.events.add(envelope.event, envelope.data, browserId);
    if (stored === null) {
      this.logger.warn('dropped an invalid capture event from the extension', { event: envelope.event });
      return;
    }
    this.send({ type: 'event', event: envelope.event, data: stored, seq: stored.seq });
  }

  /** One client that cannot take the event does not keep it from the others. */
  private send(event: Event): void {
    for (const client of this.clients()) {
      try {
        client.send(event);
      } catch (err) {
        this.logger.warn('could not forward an event to a bridge client', {
          client: client.id,
          event: event.event,
          error: (err as Error).message,
        });
      }
    }
  }
}
