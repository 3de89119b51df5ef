import type { ViewportInfo } from '#shared/toolbar-messages.js';
import { MARKER_HEIGHT, MARKER_WIDTH, markerMatches } from '../../geometry/band-marker.js';
import { cropToImage } from '../../geometry/crop-math.js';
import { captureDataUrl, context2d, decodePng, pngBase64, type StoredCrop, thumbnailPng } from './capture.js';

/**
 * Full-page stitching in the worker: the page scrolls and asks for one band at a time, the worker
 * captures the viewport, checks the band's marker (geometry/band-marker.ts) and draws the band into
 * one OffscreenCanvas, which `end` encodes.
 *
 * Chrome PNG-encodes every captureVisibleTab before it answers: a 2560×1440 band of photos at
 * device pixel ratio 2 takes it 0.5–3 s, against ~0.1 s for the frame copy itself. A band asked
 * for with its `step` index is therefore answered as soon as the frame is taken (FRAME_TAKEN_MS
 * after the call), and decoded and checked behind, while the page scrolls on and the next capture
 * waits for the quota: the encodes of several bands overlap instead of adding up. A capture that
 * comes back without its band's marker (the page had not painted yet, or had already moved on) is
 * not stitched; `settle` lists those steps and the page takes them again.
 */

/**
 * How long after the captureVisibleTab call the frame is taken as copied, so the page may change.
 * Chrome copies the frame the compositor draws next (one frame); measured at load 4–6 on the
 * 2-core VM, the page moving on 0 ms after the call spoiled 2 captures in 30, 20 ms none in 20.
 * A spoiled capture is only retaken (the marker tells), so this trades speed, never exactness.
 */
export const FRAME_TAKEN_MS = 60;

interface StitchJob {
  tabId: number;
  left: number;
  width: number;
  height: number;
  canvas: OffscreenCanvas | null;
  scale: number;
  bands: number;
  /** Bands are drawn in the order their captures are checked; `end` waits for the last. */
  drawn: Promise<void>;
  /** Checks of bands answered before their capture was decoded (see FRAME_TAKEN_MS). */
  checks: Set<Promise<void>>;
  /** Called when such a check ends. */
  onCheck: (() => void) | null;
  /** Steps whose capture showed another frame, for `settle`. */
  stale: number[];
  /** The first error of a band checked behind its answer; `settle` and `end` throw it. */
  failure: { error: unknown } | null;
}

type Band = { srcY: number; height: number; destY: number };
type Marker = { y: number; code: number };

/** Whether a viewport capture shows the band marker painted at viewport row `marker.y`. */
function showsMarker(bitmap: ImageBitmap, viewport: ViewportInfo, marker: Marker): boolean {
  const scale = bitmap.width / viewport.width;
  const width = Math.min(bitmap.width, Math.ceil(MARKER_WIDTH * scale));
  const y = Math.floor((marker.y + MARKER_HEIGHT / 2) * scale);
  if (y < 0 || y >= bitmap.height) return false;
  const canvas = new OffscreenCanvas(width, 1);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return false;
  ctx.drawImage(bitmap, 0, y, width, 1, 0, 0, width, 1);
  return markerMatches(ctx.getImageData(0, 0, width, 1).data, scale, marker.code);
}

/** Full-page stitching jobs, one per request; lost with the worker (the toolbar then says so). */
export class StitchJobs {
  private readonly jobs = new Map<string, StitchJob>();

  /** A job stitching `width` × `height` CSS px whose left edge is at viewport x `left`. */
  begin(tabId: number, width: number, height: number, left = 0): string {
    for (const [id, job] of this.jobs) if (job.tabId === tabId) this.jobs.delete(id);
    const id = crypto.randomUUID();
    this.jobs.set(id, {
      tabId,
      left,
      width,
      height,
      canvas: null,
      scale: 1,
      bands: 0,
      drawn: Promise.resolve(),
      checks: new Set(),
      onCheck: null,
      stale: [],
      failure: null,
    });
    return id;
  }

  private job(tabId: number, id: string): StitchJob {
    const job = this.jobs.get(id);
    if (!job || job.tabId !== tabId) {
      throw new Error('The full-page capture was interrupted (the extension restarted). Start it again.');
    }
    return job;
  }

  /**
   * Captures the viewport and queues copying band [srcY, srcY+height) to destY of the output.
   * With a `marker` (geometry/band-marker.ts), the capture is stitched only if it shows that
   * marker: otherwise it is an older frame (`stale`), and the page paints and asks again. Answers
   * once the capture is decoded and checked; the band is drawn behind, while the page scrolls on.
   * With a marker and the band's `step` index, answers as soon as the frame is taken and checks
   * behind (see FRAME_TAKEN_MS): `stale` is then always false, and `settle` says which steps were.
   */
  async band(
    tabId: number,
    id: string,
    band: Band,
    viewport: ViewportInfo,
    windowId?: number,
    marker?: Marker,
    step?: number,
  ): Promise<{ done: number; stale: boolean }> {
    const job = this.job(tabId, id);
    if (marker && step !== undefined) {
      await this.bandBehind(job, band, viewport, marker, step, windowId);
      return { done: job.bands, stale: false };
    }
    const bitmap = await decodePng(await captureDataUrl(tabId, windowId));
    if (marker && !showsMarker(bitmap, viewport, marker)) {
      bitmap.close();
      return { done: job.bands, stale: true };
    }
    this.queueDraw(job, bitmap, band, viewport);
    return { done: job.bands, stale: false };
  }

  /** Resolves when the frame is taken; the capture is decoded, checked and drawn behind. */
  private bandBehind(
    job: StitchJob,
    band: Band,
    viewport: ViewportInfo,
    marker: Marker,
    step: number,
    windowId?: number,
  ): Promise<void> {
    return new Promise<void>((taken) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      // Each call (a call the quota refused is made again) restarts the wait.
      const onCall = () => {
        clearTimeout(timer);
        timer = setTimeout(taken, FRAME_TAKEN_MS);
      };
      const check = captureDataUrl(job.tabId, windowId, onCall)
        .then(decodePng)
        .then((bitmap) => {
          if (showsMarker(bitmap, viewport, marker)) this.queueDraw(job, bitmap, band, viewport);
          else {
            bitmap.close();
            job.stale.push(step);
          }
        })
        .catch((error: unknown) => {
          job.failure ??= { error };
        })
        .finally(() => {
          clearTimeout(timer);
          taken();
          job.checks.delete(check);
          job.onCheck?.();
        });
      job.checks.add(check);
    });
  }

  private queueDraw(job: StitchJob, bitmap: ImageBitmap, band: Band, viewport: ViewportInfo): void {
    job.bands += 1;
    const drawn = job.drawn.then(() => this.draw(job, bitmap, band, viewport));
    // A failure is reported by `end`; until then nothing awaits it.
    drawn.catch(() => undefined);
    job.drawn = drawn;
  }

  /**
   * The steps whose capture did not show their marker (each once, in order), to be taken again:
   * as soon as one is known, while later bands may still be checked, so the page retakes it
   * meanwhile. Empty once every band is checked and none was stale. Throws the first error of a
   * band checked behind its answer.
   */
  async settle(tabId: number, id: string): Promise<number[]> {
    const job = this.job(tabId, id);
    while (job.checks.size > 0 && job.stale.length === 0 && !job.failure)
      await new Promise<void>((resolve) => {
        job.onCheck = resolve;
      });
    job.onCheck = null;
    if (job.failure) throw job.failure.error;
    const stale = [...new Set(job.stale.splice(0))];
    return stale.sort((a, b) => a - b);
  }

  private async draw(job: StitchJob, bitmap: ImageBitmap, band: Band, viewport: ViewportInfo): Promise<void> {
    try {
      if (!job.canvas) {
        // The measured bitmap/viewport ratio is the real device scale (zoom included).
        job.scale = bitmap.width / viewport.width;
        job.canvas = new OffscreenCanvas(
          Math.round(job.width * job.scale),
          Math.round(job.height * job.scale),
        );
      }
      const px = cropToImage(
        { x: job.left, y: band.srcY, width: job.width, height: band.height },
        viewport,
        bitmap,
      );
      if (px) {
        const destY = Math.round(band.destY * job.scale);
        const h = Math.min(px.sh, job.canvas.height - destY);
        if (h > 0) context2d(job.canvas).drawImage(bitmap, px.sx, px.sy, px.sw, h, 0, destY, px.sw, h);
      }
    } finally {
      bitmap.close();
    }
  }

  async end(tabId: number, id: string): Promise<StoredCrop | null> {
    const job = this.job(tabId, id);
    this.jobs.delete(id);
    await Promise.all(job.checks);
    if (job.failure) throw job.failure.error;
    await job.drawn;
    const canvas = job.canvas;
    if (!canvas) return null;
    const { width, height } = canvas;
    const [png, thumb] = await Promise.all([
      pngBase64(canvas),
      thumbnailPng(canvas, { sx: 0, sy: 0, sw: width, sh: height }),
    ]);
    return { png, width, height, thumb };
  }

  abandon(tabId: number, id: string): void {
    if (this.jobs.get(id)?.tabId === tabId) this.jobs.delete(id);
  }
}
