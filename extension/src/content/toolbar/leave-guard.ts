/**
 * The browser's own leave-page prompt while captures made on this page wait to be saved.
 * Captures survive a navigation in the same tab, but not a closed tab, and a designer who leaves
 * should know there is something to save first. The `beforeunload` listener is added only while
 * such items exist and only once the designer has used the toolbar on this page (a trusted event),
 * so an idle toolbar adds nothing to the page's unload path, and it goes with the items (a Save, a
 * Remove) or with the toolbar. The listener lives in the isolated world: page scripts cannot see it.
 */
export class LeaveGuard {
  private used = false;
  private unsaved = false;
  private armed: AbortController | null = null;

  constructor(private readonly signal: AbortSignal) {}

  /** The designer did something with the toolbar on this page. */
  touched(): void {
    if (this.used) return;
    this.used = true;
    this.apply();
  }

  /** Whether items captured on this page are in the unsaved collection. */
  set(unsaved: boolean): void {
    this.unsaved = unsaved;
    this.apply();
  }

  /** Whether leaving the page would prompt now. */
  get active(): boolean {
    return this.armed !== null;
  }

  private apply(): void {
    const want = this.used && this.unsaved && !this.signal.aborted;
    if (want && this.armed === null) {
      this.armed = new AbortController();
      window.addEventListener('beforeunload', holdOn, {
        signal: AbortSignal.any([this.armed.signal, this.signal]),
      });
    } else if (!want && this.armed !== null) {
      this.armed.abort();
      this.armed = null;
    }
  }
}

/** Asks the browser to confirm leaving (it shows its own wording; a page's text is ignored). */
function holdOn(e: BeforeUnloadEvent): void {
  e.preventDefault();
}
