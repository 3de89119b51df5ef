import {
  AREA_PIXELS,
  AreaPixelsResult,
  applyPixelCuts,
  CAPTURE_AREA,
  CaptureAreaAnswer,
} from '#shared/commands/capture-area.js';
import { queueFields } from '#shared/commands/capture-queue.js';
import {
  FETCH_RESOURCE,
  FetchResourceResult,
  inFetchOrder,
  MAX_FETCHES_PER_CAPTURE,
  MAX_RESOURCE_BYTES,
} from '#shared/commands/fetch-resource.js';
import { SaveAreaParams, type SaveAreaResult, summarizeSkipped } from '#shared/commands/save-area.js';
import type { AreaCapture } from '#shared/deep-capture/area-capture.js';
import { invalidField, validationError, XipeError } from '#shared/errors.js';
import { ideaPaths, prepareIdeaDirs } from '#shared/node/idea-store/path-safety.js';
import { resolveWorkspace } from '#shared/node/idea-store/workspaces.js';
import { loadSvgSanitizer } from '#shared/node/svg-sanitizer.js';
import { type AreaProjection, projectAhead, writeArea } from '../deep-capture/area-store.js';
import {
  decodeDataUrl,
  isPrepared,
  MAX_AREA_RESOURCE_BYTES,
  type PreparedFile,
  prepareFile,
  type SkippedResource,
} from '../deep-capture/resource-files.js';
import { decodePng } from '../screenshots/png-info.js';
import { passOn, requesterOf } from './queue-progress.js';
import type { HostHandler, HostHandlerContext } from './types.js';
import { caller } from './workspace.js';

/**
 * `save_area` (the `capture_area` MCP tool, docs/design.md §7): checks the idea before the browser is
 * asked for anything, has the extension capture the area (`capture_area`) and fetch each resource
 * (`fetch_resource`, a few at a time, each within the per-file cap), judges every file by its
 * bytes, and writes the area (deep-capture/area-store.ts). A live capture answers before its
 * screenshot is done (the bands wait for Chrome's capture quota): the resources are fetched
 * meanwhile, and the pixels asked for with the ticket it gave (`area_pixels`). A resource that cannot be had or is
 * refused is left out and listed in `skipped` with why; the clone then shows nothing in its place.
 */

const FETCH_CONCURRENCY = 4;

/** Where the area comes from: the live tab, or the toolbar's capture staged in the extension. */
type Source = { staged?: string };

/** Where a resource is fetched from and for which page (whose host alone gets the user's cookies). */
interface FetchScope {
  tabId: number;
  pageUrl: string;
  source: Source;
  timeoutMs: number;
}

async function fetchBytes(
  url: string,
  scope: FetchScope,
  maxBytes: number,
  ctx: HostHandlerContext,
): Promise<{ bytes: Uint8Array } | { reason: string }> {
  if (url.startsWith('data:')) {
    const bytes = decodeDataUrl(url);
    return bytes === null ? { reason: 'malformed data: URL' } : { bytes };
  }
  const { tabId, pageUrl, source, timeoutMs } = scope;
  const raw = await ctx.extension.request(
    FETCH_RESOURCE,
    { url, tab_id: tabId, max_bytes: maxBytes, page_url: pageUrl, ...source },
    { timeoutMs, signal: ctx.signal },
  );
  const parsed = FetchResourceResult.safeParse(raw);
  if (!parsed.success) return { reason: 'the extension sent an invalid answer' };
  if (!parsed.data.ok) return { reason: parsed.data.reason };
  return { bytes: Buffer.from(parsed.data.base64, 'base64') };
}

/**
 * Every resource of the capture, a few at a time: no more than MAX_FETCHES_PER_CAPTURE asked of
 * the browser (`data:` URLs are decoded here, not fetched), none once the byte budget is spent,
 * each asked for no more bytes than the budget has left (fetches in flight hold their share).
 */
async function gatherResources(
  capture: AreaCapture,
  tabId: number,
  ctx: HostHandlerContext,
  timeoutMs: number,
  source: Source,
): Promise<{ files: Map<string, PreparedFile>; skipped: SkippedResource[] }> {
  const files = new Map<string, PreparedFile>();
  const skipped: SkippedResource[] = [];
  const scope: FetchScope = { tabId, pageUrl: capture.url, source, timeoutMs };
  let total = 0;
  let reserved = 0;
  let fetches = 0;
  const queue = inFetchOrder(capture.resources);
  const take = async (ref: AreaCapture['resources'][number], ask: number): Promise<void> => {
    const got = await fetchBytes(ref.url, scope, ask, ctx);
    if ('reason' in got) {
      skipped.push({ src: ref.url, reason: got.reason });
      return;
    }
    const prepared = await prepareFile(ref.url, ref.type, got.bytes, MAX_RESOURCE_BYTES);
    if (!isPrepared(prepared)) skipped.push(prepared);
    else if (total + prepared.bytes.length > MAX_AREA_RESOURCE_BYTES)
      skipped.push({ src: ref.url, reason: `over the ${MAX_AREA_RESOURCE_BYTES}-byte cap per capture` });
    else {
      total += prepared.bytes.length;
      files.set(ref.url, prepared);
    }
  };
  const worker = async () => {
    for (let ref = queue.shift(); ref !== undefined; ref = queue.shift()) {
      const left = MAX_AREA_RESOURCE_BYTES - total - reserved;
      if (left <= 0) {
        skipped.push({ src: ref.url, reason: `over the ${MAX_AREA_RESOURCE_BYTES}-byte cap per capture` });
        continue;
      }
      if (!ref.url.startsWith('data:') && ++fetches > MAX_FETCHES_PER_CAPTURE) {
        skipped.push({
          src: ref.url,
          reason: `over the cap of ${MAX_FETCHES_PER_CAPTURE} fetches per capture`,
        });
        continue;
      }
      const ask = Math.min(MAX_RESOURCE_BYTES, left);
      // Held until the file is counted or left out, so no other fetch spends it meanwhile.
      reserved += ask;
      await take(ref, ask).finally(() => {
        reserved -= ask;
      });
    }
  };
  await Promise.all(Array.from({ length: FETCH_CONCURRENCY }, worker));
  return { files, skipped };
}

async function gatherPixels(capture: AreaCapture): Promise<Map<number, PreparedFile>> {
  const out = new Map<number, PreparedFile>();
  for (const [index, node] of capture.nodes.entries()) {
    const dataUrl = node.pixels?.data_url;
    if (dataUrl === null || dataUrl === undefined) continue;
    const bytes = decodeDataUrl(dataUrl);
    if (bytes === null) continue;
    const prepared = await prepareFile(`pixels:${index}`, 'image', bytes, MAX_RESOURCE_BYTES);
    if (isPrepared(prepared)) out.set(index, prepared);
  }
  return out;
}

function protocolError(command: string): XipeError {
  return new XipeError(
    'PROTOCOL_ERROR',
    `The extension answered ${command} with an invalid result. Use the same x-ipe-uiux version for the extension and the host.`,
  );
}

/** The pixels of a live capture, once its last band is shot (the ticket its answer gave). */
async function pixelsOf(
  ticket: string,
  ctx: HostHandlerContext,
  timeoutMs: number,
): Promise<AreaPixelsResult> {
  const raw = await ctx.extension.request(AREA_PIXELS, { ticket }, { timeoutMs, signal: ctx.signal });
  const parsed = AreaPixelsResult.safeParse(raw);
  if (!parsed.success) throw protocolError(AREA_PIXELS);
  return parsed.data;
}

export const saveAreaHandler: HostHandler = async (params, ctx): Promise<SaveAreaResult> => {
  const started = performance.now();
  const parsed = SaveAreaParams.safeParse(params ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'capture_area arguments', params ?? {});
  const p = parsed.data;
  if (p.staged !== undefined && ctx.source !== 'extension')
    throw invalidField(
      'staged',
      'no value (staged captures come from the toolbar only)',
      p.staged,
      'capture_area arguments',
    );
  const source: Source = p.staged !== undefined ? { staged: p.staged } : {};
  const workspace = resolveWorkspace({ ...caller(ctx), requested: p.workspace });
  // An unknown idea is refused before the browser is asked for anything.
  const dirs = await prepareIdeaDirs(ideaPaths(workspace, p.idea_folder), p.idea_folder);
  // The clone's SVG sanitizer (jsdom) loads while the browser captures, not after: the host starts
  // without it, and loading it takes longer than building a clone. A failure surfaces where it is used.
  loadSvgSanitizer().catch(() => undefined);
  let deadline = Date.now() + p.timeout_ms;
  const left = () => Math.max(1_000, deadline - Date.now());
  const raw = await ctx.extension.request(
    CAPTURE_AREA,
    {
      ...(p.selector !== undefined ? { selector: p.selector } : {}),
      ...(p.rect !== undefined ? { rect: p.rect } : {}),
      ...source,
      target: {
        ...(p.tab_id !== undefined ? { tab_id: p.tab_id } : {}),
        ...(p.url_contains !== undefined ? { url_contains: p.url_contains } : {}),
      },
      ...requesterOf(ctx),
    },
    { timeoutMs: left(), signal: ctx.signal, onProgress: passOn(ctx) },
  );
  const shot = CaptureAreaAnswer.safeParse(raw);
  if (!shot.success) throw protocolError('capture_area');
  const queue = 'queue' in shot.data ? shot.data.queue : undefined;
  // The time limit counts from when the capture started, not from when it was queued.
  deadline += queue?.queued_ms ?? 0;
  const { capture, tab } = shot.data;
  const captured = performance.now();
  let pixelsAt = captured;
  const pixels = (
    'pixels_ticket' in shot.data
      ? pixelsOf(shot.data.pixels_ticket, ctx, left())
      : Promise.resolve({ ...shot.data, cuts: [] })
  ).finally(() => {
    pixelsAt = performance.now();
  });
  let fetched = captured;
  const resources = gatherResources(capture, tab.id, ctx, left(), source).finally(() => {
    fetched = performance.now();
  });
  // Unless pixels cut from the screenshot are still to come, the clone and the area's JSON are
  // computed while the screenshot is shot (writeArea checks the area id under the lock).
  const needsCuts = capture.nodes.some((n) => n.pixels?.from_crop === true && n.pixels.data_url === null);
  let projectedAt: number | null = null;
  let projectMs: number | null = null;
  const ahead = needsCuts
    ? Promise.resolve(null)
    : resources.then(async ({ files }) => {
        const pixelFiles = await gatherPixels(capture);
        const from = performance.now();
        const projected: AreaProjection = await projectAhead({
          dirs,
          areaId: p.area_id ?? null,
          capture,
          instruction: p.instruction,
          colorRoles: p.color_roles,
          files,
          pixelFiles,
        });
        projectedAt = performance.now();
        projectMs = projectedAt - from;
        return { pixelFiles, projected };
      });
  const [{ files, skipped }, area, early] = await Promise.all([resources, pixels, ahead]);
  applyPixelCuts(capture, area.cuts);
  const png = decodePng(area.png);
  const pixelFiles = early?.pixelFiles ?? (await gatherPixels(capture));
  const prepared = performance.now();
  const written = await writeArea({
    dirs,
    ideaFolder: p.idea_folder,
    capture,
    png: png.bytes,
    areaId: p.area_id ?? null,
    instruction: p.instruction,
    colorRoles: p.color_roles,
    files,
    pixelFiles,
    now: new Date(),
    projected: early?.projected ?? null,
  });
  ctx.logger.info('area captured', {
    idea: p.idea_folder,
    area: written.areaId,
    elements: written.elementCount,
    resources: written.resources.length,
    skipped: skipped.length,
    // Where the time went (ms from the call): the engine's answer (its in-page part), the
    // resources fetched and the pixels received meanwhile, the writing; the extension's steps.
    capture_ms: Math.round(captured - started),
    engine_ms: capture.diagnostics.elapsed_ms,
    resources_ms: Math.round(fetched - started),
    pixels_ms: Math.round(pixelsAt - started),
    projected_ms: projectedAt === null ? null : Math.round(projectedAt - started),
    project_ms: projectMs === null ? null : Math.round(projectMs),
    write_ms: Math.round(performance.now() - prepared),
    extension: area.timings ?? shot.data.timings,
  });
  ctx.events.record?.('deep_capture_saved', {
    tab_id: tab.id,
    page_url: tab.url,
    at: new Date().toISOString(),
    idea_folder: p.idea_folder,
    area_id: written.areaId,
    element_count: written.elementCount,
    files: written.files,
  });
  return {
    status: 'success',
    area_id: written.areaId,
    element_count: written.elementCount,
    resource_count: written.resources.length,
    resource_bytes: written.resources.reduce((sum, r) => sum + r.bytes, 0),
    files: written.files,
    elapsed_ms: Math.round(performance.now() - started),
    ...summarizeSkipped(skipped),
    ...queueFields(queue),
  };
};
