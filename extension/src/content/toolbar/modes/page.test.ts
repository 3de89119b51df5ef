// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CollectedElement } from '#shared/toolbar-messages.js';
import { fakeContext } from '#test/helpers/toolbar-mode-kit.js';
import type { FullPageOptions } from '../full-page.js';

// The scroll-and-stitch itself needs a real browser (test/e2e/toolbar-full-page.test.ts); here it
// is replaced, to check what the mode does around it.
const captureFullPage =
  vi.fn<(opts: FullPageOptions) => Promise<{ item: CollectedElement; recaptured: number }>>();
vi.mock('../full-page.js', () => ({ captureFullPage }));
const { pageMode } = await import('./page.js');

const shot: CollectedElement = {
  key: 'k1',
  kind: 'full_page',
  selector: 'html',
  tag: 'html',
  bounding_box: { x: 0, y: 0, width: 1280, height: 16000 },
  page_url: 'https://example.com/',
  crop: { width: 1280, height: 16000 },
  capped_at: 16000,
  created_at: '2025-01-15T10:30:00.000Z',
};

beforeEach(() => {
  captureFullPage.mockReset();
});

describe('full-page mode', () => {
  it('runs one capture with the toolbar busy, lists the shot, says where it was cut, and ends', async () => {
    const ctx = fakeContext();
    let busyDuring = false;
    captureFullPage.mockImplementation(async (opts) => {
      busyDuring = ctx.busy;
      opts.progress(2, 5, '(cut at 16000px)');
      await opts.veil.lower(null, { marker: { y: 696, code: 7 } });
      opts.veil.lift();
      return { item: shot, recaptured: 0 };
    });
    await pageMode.enter(ctx);
    expect(busyDuring).toBe(true);
    expect(ctx.busy).toBe(false);
    expect(ctx.progress).toHaveBeenCalledWith('Full page: 2/5 (cut at 16000px)', 0.4);
    expect(ctx.veil.lower).toHaveBeenCalledWith(null, { marker: { y: 696, code: 7 } });
    expect(ctx.veil.lift).toHaveBeenCalled();
    expect(ctx.added).toHaveBeenCalledWith(shot);
    expect(ctx.statuses.at(-1)).toMatch(
      /^Full page captured \(1280×16000 px\) in \d+ ms\. The page is taller than 16000px; the shot stops there\.$/,
    );
    expect(ctx.finish).toHaveBeenCalled();
  });

  it('reports a failure and still ends', async () => {
    const ctx = fakeContext();
    const failure = new Error('The page would not scroll');
    captureFullPage.mockRejectedValue(failure);
    await pageMode.enter(ctx);
    expect(ctx.fail).toHaveBeenCalledWith(failure);
    expect(ctx.added).not.toHaveBeenCalled();
    expect(ctx.finish).toHaveBeenCalled();
  });

  it('passes its signal on, so closing the toolbar stops the scrolling', async () => {
    const ctx = fakeContext();
    captureFullPage.mockResolvedValue({ item: shot, recaptured: 2 });
    await pageMode.enter(ctx);
    expect(captureFullPage.mock.calls[0]?.[0].signal).toBe(ctx.signal);
    expect(pageMode.kind).toBe('run');
    expect(ctx.statuses.at(-1)).toMatch(
      /2 capture\(s\) came before the page had painted and were taken again\.$/,
    );
  });
});
