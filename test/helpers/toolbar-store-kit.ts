import type { KeyValueStorage } from '../../extension/src/background/toolbar/collection-store.js';

/** For the collection's unit tests: storage.local in memory (values cloned as the browser does). */
export class MemoryStorage implements KeyValueStorage {
  readonly data = new Map<string, unknown>();
  async get(keys: string[]) {
    const out: Record<string, unknown> = {};
    for (const k of keys) if (this.data.has(k)) out[k] = structuredClone(this.data.get(k));
    return out;
  }
  async set(items: Record<string, unknown>) {
    for (const [k, v] of Object.entries(items)) this.data.set(k, structuredClone(v));
  }
  async remove(keys: string[]) {
    for (const k of keys) this.data.delete(k);
  }
}

/** A real 1×1 PNG (base64), so a built save request passes the v1.0 schema's PNG check. */
export const PNG_1x1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
