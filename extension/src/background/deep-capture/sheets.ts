import { fetchAsPage } from '../handlers/fetch-credentials.js';
import { readCapped } from '../handlers/fetch-resource.js';

/**
 * Cross-origin stylesheets for the deep capture, fetched by the worker: the page applies them but
 * cannot read their rules, and neither can a content script; the extension's host permissions let
 * the worker read what the page loaded (from its HTTP cache when it can; the user's cookies only
 * for the page's own host: fetch-credentials.ts). The texts only ever become constructed stylesheets the engine reads and
 * never attaches; like the browser, only a sheet served as `text/css` is taken. Capped in size
 * and time: a sheet that cannot be had is left out, and the capture reports it as unreadable.
 */

const MAX_SHEET_BYTES = 2 * 1024 * 1024;
const MAX_TOTAL_BYTES = 8 * 1024 * 1024;
const SHEET_TIMEOUT_MS = 5_000;
/** Most sheets fetched for one capture: a page listing thousands gets no more requests. */
const MAX_SHEETS = 50;

async function fetchSheet(href: string, pageUrl: string): Promise<string | null> {
  if (!/^https?:/i.test(href)) return null;
  try {
    const response = await fetchAsPage(href, pageUrl, {
      cache: 'force-cache',
      signal: AbortSignal.timeout(SHEET_TIMEOUT_MS),
    });
    // The browser applies a cross-origin sheet only when it is served as CSS; so does this.
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !/^\s*text\/css\b/i.test(type)) return null;
    const bytes = await readCapped(response, MAX_SHEET_BYTES);
    return bytes === null ? null : new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
}

/** The texts of `hrefs` (sheets of the page at `pageUrl`) that could be fetched, by URL. */
export async function fetchSheets(
  hrefs: readonly string[],
  pageUrl: string,
): Promise<Record<string, string>> {
  const texts = await Promise.all(hrefs.slice(0, MAX_SHEETS).map((href) => fetchSheet(href, pageUrl)));
  const out: Record<string, string> = {};
  let total = 0;
  hrefs.forEach((href, i) => {
    const text = texts[i];
    if (text === null || text === undefined || total + text.length > MAX_TOTAL_BYTES) return;
    total += text.length;
    out[href] = text;
  });
  return out;
}
