/**
 * Remove, with a moment to take it back. The list drops an item at once, but the worker is told
 * only when the moment passes, another item is removed, a save starts or the toolbar closes; until
 * then Undo (or Ctrl+Z) brings it back as it was, crop and deep capture included, because nothing
 * was deleted yet. One item waits at a time.
 */
export class DeferredRemoval {
  private pending: { key: string; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(
    private readonly commit: (key: string) => Promise<void>,
    private readonly ms = 6000,
  ) {}

  /** The item that is gone from the list but not yet from the worker. */
  get key(): string | null {
    return this.pending?.key ?? null;
  }

  /** Drops `key` from view now; the one waiting before it is removed for good first. */
  async defer(key: string): Promise<void> {
    await this.flush();
    const timer = setTimeout(() => void this.flush(), this.ms);
    this.pending = { key, timer };
  }

  /** Takes the waiting removal back; false when there was none. */
  undo(): boolean {
    const pending = this.pending;
    if (!pending) return false;
    clearTimeout(pending.timer);
    this.pending = null;
    return true;
  }

  /** Removes the waiting item for good, now. */
  async flush(): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending = null;
    await this.commit(pending.key);
  }
}
