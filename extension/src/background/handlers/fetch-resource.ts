import type { FetchResourceParams, FetchResourceResult } from '#shared/index.js';
import { executeFunction } from '../../platform/browser.js';
import { fetchAsPage } from './fetch-credentials.js';

/**
 * `fetch_resource` (for the host's `save_area`): one resource of a captured area, fetched as the
 * page could — http(s) from the worker (the extension's host permissions spare it CORS; the HTTP
 * cache answers what the page already loaded) with the user's cookies only for the page's own host
 * (fetch-credentials.ts) and never across a redirect, `blob:` URLs inside the tab that created
 * them. The body is read only up to `max_bytes`; the host judges
 * what it is from the bytes.
 */

const toBase64 = (Uint8Array.prototype as unknown as { toBase64?: (this: Uint8Array) => string }).toBase64;

function base64(bytes: Uint8Array): string {
  if (toBase64) return toBase64.call(bytes);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Reads at most `max` bytes; null when the body is longer. */
export async function readCapped(response: Response, max: number): Promise<Uint8Array | null> {
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Runs in the tab (a `blob:` URL belongs to it); self-contained. */
async function fetchInPage(
  url: string,
  max: number,
): Promise<{ base64: string; type: string } | { reason: string }> {
  const response = await fetch(url);
  if (!response.ok) return { reason: `HTTP ${response.status}` };
  const blob = await response.blob();
  if (blob.size > max) return { reason: `larger than ${max} bytes` };
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { base64: btoa(binary), type: blob.type };
}

export async function fetchResource(params: FetchResourceParams): Promise<FetchResourceResult> {
  const { url, max_bytes: max } = params;
  try {
    if (url.startsWith('blob:')) {
      const [injection] = await executeFunction({
        target: { tabId: params.tab_id },
        func: fetchInPage,
        args: [url, max],
      });
      const result = injection?.result as
        | { base64: string; type: string }
        | { reason: string }
        | null
        | undefined;
      if (result === null || result === undefined) return { ok: false, reason: 'the tab could not read it' };
      if ('reason' in result) return { ok: false, reason: result.reason };
      return {
        ok: true,
        base64: result.base64,
        bytes: Math.floor((result.base64.length * 3) / 4),
        content_type: result.type || null,
      };
    }
    if (!/^https?:/i.test(url)) return { ok: false, reason: 'not an http(s) or blob: URL' };
    const response = await fetchAsPage(url, params.page_url, { cache: 'force-cache' });
    if (!response.ok) return { ok: false, reason: `HTTP ${response.status}` };
    const bytes = await readCapped(response, max);
    if (bytes === null) return { ok: false, reason: `larger than ${max} bytes` };
    return {
      ok: true,
      base64: base64(bytes),
      bytes: bytes.length,
      content_type: response.headers.get('content-type'),
    };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message.slice(0, 300) : 'network error' };
  }
}
