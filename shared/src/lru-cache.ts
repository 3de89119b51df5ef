/**
 * A least-recently-used map bounded in entries and in total weight (e.g. characters), for results
 * that are cheap to keep and costly to recompute. A value heavier than the whole budget is not kept.
 * Without a weight budget it is bounded in entries only. Browser-safe.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get totalWeight(): number {
    return this.weight;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Map keeps insertion order: re-inserting marks it most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight = 0): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.weight -= old.weight;
    }
    if (weight > this.maxWeight || this.maxEntries < 1) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.weight <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }
}
