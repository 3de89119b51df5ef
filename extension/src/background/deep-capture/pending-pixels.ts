import type { AreaPixelsResult } from '#shared/commands/capture-area.js';
import { XipeError } from '#shared/errors.js';

/**
 * Pixels of live area captures that answered before their screenshot was done (`capture_area`'s
 * ticket), kept until the host redeems them with `area_pixels`. A ticket is redeemed once; one
 * nobody redeems within `keepMs` of its pixels settling is dropped, so a host that went away
 * leaves nothing behind. A failed screenshot is reported to whoever redeems the ticket.
 */

export const PIXELS_KEEP_MS = 60_000;

interface Held {
  pixels: Promise<AreaPixelsResult>;
  timer: ReturnType<typeof setTimeout> | null;
}

export class PendingPixels {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly keepMs = PIXELS_KEEP_MS,
    private readonly newTicket: () => string = () => crypto.randomUUID(),
  ) {}

  get size(): number {
    return this.held.size;
  }

  hold(pixels: Promise<AreaPixelsResult>): string {
    const ticket = this.newTicket();
    const entry: Held = { pixels, timer: null };
    this.held.set(ticket, entry);
    const expire = () => {
      if (this.held.get(ticket) !== entry) return; // redeemed meanwhile
      entry.timer = setTimeout(() => {
        if (this.held.get(ticket) === entry) this.held.delete(ticket);
      }, this.keepMs);
    };
    pixels.then(expire, expire);
    return ticket;
  }

  take(ticket: string): Promise<AreaPixelsResult> {
    const entry = this.held.get(ticket);
    if (entry === undefined) {
      return Promise.reject(
        new XipeError(
          'PROTOCOL_ERROR',
          `No area pixels wait under ticket ${ticket}: they were redeemed already, or dropped ${this.keepMs / 1000} s after the capture. Capture the area again.`,
          { ticket },
        ),
      );
    }
    this.held.delete(ticket);
    if (entry.timer !== null) clearTimeout(entry.timer);
    return entry.pixels;
  }
}

/** One per worker, as the capture quota: live captures hold their pixels here for the host. */
export const pendingPixels = new PendingPixels();
