import fs from 'node:fs';

/**
 * Tells whether a directory may have changed since a moment (`mark`), so a listing taken right
 * after that moment can be reused instead of listing again on every call.
 *
 * Linux only (inotify): the kernel queues the event when the entry changes, before anyone else can
 * see the change, and the event loop hands it over ahead of any message sent after that (its file
 * descriptor became ready first). Elsewhere watchers may report late (macOS batches FSEvents), so
 * `mark` answers false and the caller lists every time, as before.
 *
 * Each watcher serves one unchanged period: the first event (or error) closes it, and the next
 * `mark` starts a new one. A directory that was deleted and made again is thus watched afresh.
 */
export class DirChanges {
  private watcher: fs.FSWatcher | null = null;

  constructor(
    private readonly dir: string,
    private readonly enabled: boolean,
  ) {}

  /**
   * Starts an unchanged period now; take the listing after this call. False when the directory
   * cannot be watched (not Linux, missing, or no watcher left): then `unchanged` stays false.
   */
  mark(): boolean {
    if (!this.enabled) return false;
    if (this.watcher !== null) return true;
    try {
      const watcher = fs.watch(this.dir, { persistent: false }, () => this.end(watcher));
      watcher.on('error', () => this.end(watcher));
      this.watcher = watcher;
      return true;
    } catch {
      return false;
    }
  }

  /** Nothing in the directory changed since the last successful `mark`. */
  get unchanged(): boolean {
    return this.watcher !== null;
  }

  close(): void {
    if (this.watcher !== null) this.end(this.watcher);
  }

  private end(watcher: fs.FSWatcher): void {
    if (this.watcher === watcher) this.watcher = null;
    watcher.close();
  }
}
