import { XipeError } from '#shared/errors.js';

/**
 * Images the extension staged for its next save (`stage_image`), in memory: the host is the
 * extension's own process and lives as long as its link, so nothing is left on disk. Bounded: a
 * staged image expires after TTL_MS, and the total held is capped (an image over it is refused).
 * No timer runs: expired images are dropped whenever one is staged or taken.
 */
export const TTL_MS = 10 * 60_000;
export const MAX_TOTAL_BYTES = 512 * 1024 * 1024;

export class StagedImages {
  private readonly images = new Map<string, { bytes: Buffer; at: number }>();
  private total = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxTotalBytes = MAX_TOTAL_BYTES,
  ) {}

  get heldBytes(): number {
    return this.total;
  }

  put(id: string, bytes: Buffer): void {
    this.expire();
    this.drop(id);
    if (this.total + bytes.length > this.maxTotalBytes) {
      throw new XipeError(
        'PAYLOAD_TOO_LARGE',
        `The host holds ${this.total} bytes of images for saves already; this one (${bytes.length} bytes) would pass the ${this.maxTotalBytes}-byte limit. Save, then try again.`,
        { bytes: bytes.length, held_bytes: this.total, max_bytes: this.maxTotalBytes },
      );
    }
    this.images.set(id, { bytes, at: this.now() });
    this.total += bytes.length;
  }

  /** The image, handed over once (a save takes it); null when unknown or expired. */
  take(id: string): Buffer | null {
    this.expire();
    const entry = this.images.get(id);
    if (!entry) return null;
    this.drop(id);
    return entry.bytes;
  }

  private drop(id: string): void {
    const entry = this.images.get(id);
    if (!entry) return;
    this.images.delete(id);
    this.total -= entry.bytes.length;
  }

  private expire(): void {
    const limit = this.now() - TTL_MS;
    for (const [id, entry] of this.images) if (entry.at < limit) this.drop(id);
  }
}
