import type { CaptureAreaResult } from '#shared/commands/capture-area.js';
import {
  type FetchResourceResult,
  inFetchOrder,
  MAX_AREA_RESOURCE_BYTES,
  MAX_FETCHES_PER_CAPTURE,
  MAX_RESOURCE_BYTES,
} from '#shared/commands/fetch-resource.js';
import type { TabRef } from '#shared/commands/target.js';
import { AreaCapture, type CaptureRect } from '#shared/deep-capture/area-capture.js';
import { isAreaElement } from '#shared/deep-capture/referenced-area.js';
import { decodePng, type StoredCrop } from '../capture/capture.js';
import { fetchResource } from '../handlers/fetch-resource.js';
import { deepFilesKey, deepKey, type KeyValueStorage } from '../toolbar/collection-store.js';
import { cutPixelNodes } from './area-shot.js';
import { captureAreaInTab } from './run-capture.js';

/**
 * The designer toolbar's deep captures, staged in extension storage until Save (docs/toolbar.md,
 * "Deep capture"). Taken right after the item's crop, in the same page state: the engine reads the
 * page with the toolbar's shield still up (no `:hover` from the pointer), the crop is the area's
 * screenshot (so the toolbar never disappears and the page is never scrolled), and fonts and images
 * are fetched at once, as the page could then (`blob:` URLs and signed links die with the page).
 * On Save the host's `save_area` asks for them by item key through the same `capture_area` and
 * `fetch_resource` commands an agent's capture uses, so judging and writing files is one code path.
 * Storage survives the worker; nothing reaches an idea folder before Save.
 */

export interface StagedSummary {
  element_count: number;
  resource_count: number;
  skipped_count: number;
  elapsed_ms: number;
}

interface StagedRecord {
  capture: unknown;
  tab: TabRef;
}

type StagedFile = { base64: string; bytes: number; content_type: string | null } | { reason: string };
type StagedFiles = Record<string, StagedFile>;

/** Resources fetched at once: the page's own server sees no more than a browser tab would open. */
const FETCH_CONCURRENCY = 4;
/** How long the last-read file set stays in memory (the host asks for its files one by one). */
const FILES_CACHE_MS = 30_000;

export class StagedCaptures {
  private cached: { key: string; files: Promise<StagedFiles>; timer: ReturnType<typeof setTimeout> } | null =
    null;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly crop: (key: string) => Promise<StoredCrop | null>,
    private readonly tab: (tabId: number) => Promise<TabRef>,
  ) {}

  /** Reads the area (page coordinates) in the tab, cuts its pixel nodes from the crop, fetches its files. */
  async take(tabId: number, key: string, rect: CaptureRect): Promise<StagedSummary> {
    const started = performance.now();
    const crop = await this.crop(key);
    if (crop === null) throw new Error('The item has no crop to go with a deep capture; capture it again.');
    const [capture, tab] = await Promise.all([captureAreaInTab(tabId, rect), this.tab(tabId)]);
    if (capture.nodes.some((n) => n.pixels?.from_crop === true && n.pixels.data_url === null)) {
      const bitmap = await decodePng(`data:image/png;base64,${crop.png}`);
      try {
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
        await cutPixelNodes(capture, { canvas, scale: capture.viewport.dpr });
      } finally {
        bitmap.close();
      }
    }
    const files = await fetchAll(capture, tabId);
    const record: StagedRecord = { capture, tab };
    await this.storage.set({ [deepKey(key)]: record, [deepFilesKey(key)]: files });
    const fetched = Object.values(files).filter((f) => 'base64' in f).length;
    const inline = capture.resources.filter((r) => r.url.startsWith('data:')).length;
    return {
      element_count: capture.nodes.filter(isAreaElement).length,
      resource_count: fetched + inline,
      skipped_count: capture.resources.length - fetched - inline,
      elapsed_ms: Math.round(performance.now() - started),
    };
  }

  /** The staged capture as `capture_area` answers it; null when nothing is staged under `key`. */
  async area(key: string): Promise<CaptureAreaResult | null> {
    const [stored, crop] = await Promise.all([
      this.storage.get([deepKey(key)]).then((r) => r[deepKey(key)] as StagedRecord | undefined),
      this.crop(key),
    ]);
    if (stored === undefined || crop === null) return null;
    const capture = AreaCapture.parse(stored.capture);
    return {
      capture,
      png: crop.png,
      width: crop.width,
      height: crop.height,
      scale: capture.viewport.dpr,
      tab: stored.tab,
    };
  }

  /** A staged file as `fetch_resource` answers it; null when it was not staged (fetch it live). */
  async resource(key: string, url: string): Promise<FetchResourceResult | null> {
    const file = (await this.files(key))[url];
    if (file === undefined) return null;
    return 'reason' in file ? { ok: false, reason: file.reason } : { ok: true, ...file };
  }

  private files(key: string): Promise<StagedFiles> {
    if (this.cached?.key !== key) {
      if (this.cached) clearTimeout(this.cached.timer);
      const files = this.storage
        .get([deepFilesKey(key)])
        .then((r) => (r[deepFilesKey(key)] ?? {}) as StagedFiles);
      const timer = setTimeout(() => {
        if (this.cached?.key === key) this.cached = null;
      }, FILES_CACHE_MS);
      this.cached = { key, files, timer };
    }
    return this.cached.files;
  }
}

/**
 * Fetches the capture's http(s) and `blob:` files a few at a time, within the host's caps: no more
 * than MAX_FETCHES_PER_CAPTURE requests, none once the byte budget is spent.
 */
async function fetchAll(capture: AreaCapture, tabId: number): Promise<StagedFiles> {
  const files: StagedFiles = {};
  let total = 0;
  const urls = inFetchOrder(capture.resources)
    .map((r) => r.url)
    .filter((url) => !url.startsWith('data:'));
  for (const url of urls.slice(MAX_FETCHES_PER_CAPTURE))
    files[url] = { reason: `over the cap of ${MAX_FETCHES_PER_CAPTURE} fetches per capture` };
  const queue = urls.slice(0, MAX_FETCHES_PER_CAPTURE);
  // Fetches in flight hold their share of the budget until they answer.
  let reserved = 0;
  const next = async (): Promise<void> => {
    const url = queue.shift();
    if (url === undefined) return;
    const left = MAX_AREA_RESOURCE_BYTES - total - reserved;
    if (left <= 0) {
      files[url] = { reason: `over the ${MAX_AREA_RESOURCE_BYTES}-byte cap per capture` };
      return next();
    }
    const ask = Math.min(MAX_RESOURCE_BYTES, left);
    reserved += ask;
    // fetchResource answers failures, it does not throw: the share is given back below, once counted.
    const got = await fetchResource({ url, tab_id: tabId, max_bytes: ask, page_url: capture.url });
    reserved -= ask;
    if (got.ok && total + got.bytes > MAX_AREA_RESOURCE_BYTES) {
      files[url] = { reason: `over the ${MAX_AREA_RESOURCE_BYTES}-byte cap per capture` };
    } else if (got.ok) {
      total += got.bytes;
      files[url] = { base64: got.base64, bytes: got.bytes, content_type: got.content_type };
    } else files[url] = { reason: got.reason };
    return next();
  };
  await Promise.all(Array.from({ length: FETCH_CONCURRENCY }, next));
  return files;
}
