import { SCRIPT_CACHE_MAX_CHARS, XipeError } from '#shared/index.js';
import { LruCache } from '#shared/lru-cache.js';

/** SHA-256 of the text's UTF-8 bytes, lower-case hex (the wire's `code_sha256`). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Scripts an MCP server sent with their hash, so a later call can name them by `code_sha256`
 * instead of carrying them again through the host and native messaging (measured: ~2.7 ms of a
 * ~12 ms call for 24 KB). Kept for the worker's lifetime: at most 16 scripts, 8 Mi characters.
 */
export class ScriptStore {
  private readonly scripts = new LruCache<string, string>(16, 8 * 1024 * 1024);

  /**
   * The code to run: the one given (its hash checked, then kept) or the one kept under
   * `code_sha256`. SCRIPT_NOT_CACHED, before anything else happens, when it is not kept.
   */
  async resolve(params: { code?: string | undefined; code_sha256?: string | undefined }): Promise<string> {
    const { code, code_sha256: hash } = params;
    if (code !== undefined) {
      if (hash !== undefined && code.length <= SCRIPT_CACHE_MAX_CHARS) {
        const actual = await sha256Hex(code);
        if (actual !== hash) {
          throw new XipeError(
            'VALIDATION_ERROR',
            `code_sha256: ${hash} is not the SHA-256 of the code sent with it (${actual}).`,
            { field: 'code_sha256' },
          );
        }
        this.scripts.set(hash, code, code.length);
      }
      return code;
    }
    const kept = hash !== undefined ? this.scripts.get(hash) : undefined;
    if (kept === undefined) {
      throw new XipeError(
        'SCRIPT_NOT_CACHED',
        'The extension does not hold this script (its worker restarted or dropped it): send the code itself.',
        { code_sha256: hash },
      );
    }
    return kept;
  }
}
