/**
 * Which scripts (by SHA-256) this server has sent in full to which browser, so that a repeated
 * inject_script can name the script by its hash instead of carrying it again (the extension keeps
 * recent scripts for its worker's lifetime). Only a hint: when the extension no longer has a
 * script it answers SCRIPT_NOT_CACHED and the caller sends it in full. Bounded: the most recent
 * 64 hashes for each of at most 16 browsers.
 */
export class SentScripts {
  private readonly byBrowser = new Map<string, Set<string>>();

  constructor(
    private readonly maxPerBrowser = 64,
    private readonly maxBrowsers = 16,
  ) {}

  /** `browser` is the browser_id the call was routed to, or '' when it went to the only host. */
  has(browser: string, sha256: string): boolean {
    return this.byBrowser.get(browser)?.has(sha256) ?? false;
  }

  add(browser: string, sha256: string): void {
    let hashes = this.byBrowser.get(browser);
    if (hashes === undefined) {
      hashes = new Set();
      this.byBrowser.set(browser, hashes);
      for (const oldest of this.byBrowser.keys()) {
        if (this.byBrowser.size <= this.maxBrowsers) break;
        this.byBrowser.delete(oldest);
      }
    }
    hashes.delete(sha256); // re-added below as the most recent
    hashes.add(sha256);
    for (const oldest of hashes) {
      if (hashes.size <= this.maxPerBrowser) break;
      hashes.delete(oldest);
    }
  }

  forget(browser: string, sha256: string): void {
    this.byBrowser.get(browser)?.delete(sha256);
  }
}
