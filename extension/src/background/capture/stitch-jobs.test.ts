import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MARKER_WIDTH, markerBlocks } from '../../geometry/band-marker.js';

/**
 * The pipelining of StitchJobs with Chrome's capture and the canvas replaced: a "capture" is a
 * promise the test settles, and its "bitmap" carries the band code its marker row shows. The real
 * capture, marker and pixels are checked end to end by the e2e full-page tests.
 */
interface FakeBitmap {
  width: number;
  height: number;
  code: number | null;
  close(): void;
}

const captures: { resolve(code: number | null): void; reject(err: Error): void }[] = [];
const drawn: number[] = [];

vi.mock('./capture.js', () => ({
  captureDataUrl: (_tab: number, _window: number | undefined, onCall: () => void = () => undefined) =>
    new Promise<string>((resolve, reject) => {
      captures.push({ resolve: (code: number | null) => resolve(`code:${code}`), reject });
      onCall();
    }),
  decodePng: async (url: string): Promise<FakeBitmap> => {
    const code = url === 'code:null' ? null : Number(url.slice('code:'.length));
    return { width: VIEWPORT.width, height: VIEWPORT.height, code, close: () => undefined };
  },
  context2d: () => ({
    drawImage: (bitmap: FakeBitmap) => {
      if (bitmap.code !== null) drawn.push(bitmap.code);
    },
  }),
  pngBase64: async () => 'PNG',
  thumbnailPng: async () => 'THUMB',
}));

const VIEWPORT = { width: 200, height: 100, dpr: 1 };

/** A marker row as the canvas would read it from a bitmap showing `code` (null: no marker). */
function markerRow(code: number | null, width: number): Uint8ClampedArray {
  const row = new Uint8ClampedArray(width * 4).fill(128);
  if (code === null) return row;
  for (const block of markerBlocks(code))
    for (let x = block.x; x < block.x + block.width; x += 1)
      row.fill(block.white ? 255 : 0, x * 4, x * 4 + 3);
  return row;
}

class FakeCanvas {
  private source: FakeBitmap | null = null;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {}
  getContext() {
    return {
      drawImage: (bitmap: FakeBitmap) => {
        this.source = bitmap;
      },
      getImageData: () => ({ data: markerRow(this.source?.code ?? null, this.width) }),
    };
  }
}

const { StitchJobs, FRAME_TAKEN_MS } = await import('./stitch-jobs.js');

const band = (destY: number) => ({ srcY: 0, height: 96, destY });
const marker = (code: number) => ({ y: 96, code });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('StitchJobs', () => {
  beforeEach(() => {
    captures.length = 0;
    drawn.length = 0;
    vi.stubGlobal('OffscreenCanvas', FakeCanvas);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('answers a band once its frame is taken, before Chrome has encoded it, and stitches it when its marker shows', async () => {
    expect(MARKER_WIDTH).toBeLessThanOrEqual(VIEWPORT.width);
    const jobs = new StitchJobs();
    const job = jobs.begin(1, 200, 192);
    const started = performance.now();
    const answer = await jobs.band(1, job, band(0), VIEWPORT, 9, marker(10), 0);
    expect(answer.stale).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(FRAME_TAKEN_MS - 5);
    expect(captures).toHaveLength(1); // still encoding: nothing decoded or drawn yet
    expect(drawn).toEqual([]);
    await jobs.band(1, job, band(96), VIEWPORT, 9, marker(11), 1);
    captures[1]?.resolve(11);
    captures[0]?.resolve(10);
    expect(await jobs.settle(1, job)).toEqual([]);
    expect(drawn.sort()).toEqual([10, 11]);
    expect(await jobs.end(1, job)).toEqual({ png: 'PNG', width: 200, height: 192, thumb: 'THUMB' });
  });

  it('names a band whose capture showed another frame as soon as that is known, while later bands are still checked', async () => {
    const jobs = new StitchJobs();
    const job = jobs.begin(1, 200, 288);
    await jobs.band(1, job, band(0), VIEWPORT, 9, marker(10), 0);
    await jobs.band(1, job, band(96), VIEWPORT, 9, marker(11), 1);
    await jobs.band(1, job, band(192), VIEWPORT, 9, marker(12), 2);
    captures[0]?.resolve(10);
    captures[1]?.resolve(12); // the page had already scrolled on to the next band
    const stale = await jobs.settle(1, job);
    expect(stale).toEqual([1]);
    expect(drawn).toEqual([10]); // the third band is still being checked
    // Taken again, while the third is still out.
    await jobs.band(1, job, band(96), VIEWPORT, 9, marker(11), 1);
    captures[3]?.resolve(null); // a frame with no marker (the toolbar showing)
    captures[2]?.resolve(12);
    expect(await jobs.settle(1, job)).toEqual([1]);
    await jobs.band(1, job, band(96), VIEWPORT, 9, marker(11), 1);
    captures[4]?.resolve(11);
    expect(await jobs.settle(1, job)).toEqual([]);
    expect(drawn).toEqual([10, 12, 11]);
  });

  it('gives the error of a band checked behind its answer to settle and end', async () => {
    const jobs = new StitchJobs();
    const job = jobs.begin(1, 200, 96);
    await jobs.band(1, job, band(0), VIEWPORT, 9, marker(10), 0);
    captures[0]?.reject(new Error('The tab was switched during the capture; pick it again.'));
    await tick();
    await expect(jobs.settle(1, job)).rejects.toThrow('tab was switched');
    await expect(jobs.end(1, job)).rejects.toThrow('tab was switched');
  });

  it('without a step, answers only once the capture is checked, and says when it was stale', async () => {
    const jobs = new StitchJobs();
    const job = jobs.begin(1, 200, 96);
    const answer = jobs.band(1, job, band(0), VIEWPORT, 9, marker(10));
    await tick();
    captures[0]?.resolve(9);
    expect(await answer).toEqual({ done: 0, stale: true });
    const again = jobs.band(1, job, band(0), VIEWPORT, 9, marker(10));
    await tick();
    captures[1]?.resolve(10);
    expect(await again).toEqual({ done: 1, stale: false });
  });
});
