// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CollectedElement, ToolbarRequest } from '#shared/toolbar-messages.js';

/**
 * The page side of the pipelined full page: which bands it asks for, in what state, and how it
 * takes again the bands the worker found stale. The worker is replaced (its answers are scripted)
 * and so is the page's layout (no layout in happy-dom); pixels and markers are checked end to end
 * by test/e2e/toolbar-full-page.test.ts and toolbar-retina.test.ts.
 */
const requests: { step: number | undefined; scrollY: number; headerHidden: boolean }[] = [];
let staleAnswers: number[][] = [];
const settled = vi.fn(async () => undefined);
/** The toolbar's turn in the capture queue, and where the page was when it was asked for. */
const turns: string[] = [];

const item: CollectedElement = {
  key: 'k1',
  kind: 'full_page',
  selector: 'html',
  tag: 'html',
  bounding_box: { x: 0, y: 0, width: 200, height: 350 },
  page_url: 'https://example.com/',
  crop: { width: 200, height: 350 },
  created_at: '2025-01-15T10:30:00.000Z',
};

vi.mock('./runtime.js', () => ({
  inTurn: async <T>(work: () => Promise<T>): Promise<T> => {
    turns.push(`hold at ${window.scrollY}`);
    try {
      return await work();
    } finally {
      turns.push(`release at ${window.scrollY}`);
    }
  },
  send: async (req: ToolbarRequest) => {
    switch (req.type) {
      case 'xipe-toolbar:full_page_begin':
        return { job: 'job-1' };
      case 'xipe-toolbar:full_page_band': {
        const header = document.querySelector('header');
        requests.push({
          step: req.step,
          scrollY: window.scrollY,
          headerHidden: header?.style.getPropertyValue('visibility') === 'hidden',
        });
        return { done: requests.length, stale: false };
      }
      case 'xipe-toolbar:full_page_settle':
        return { stale: staleAnswers.shift() ?? [] };
      case 'xipe-toolbar:full_page_end':
        return req.draft ? item : null;
      default:
        throw new Error(`unexpected ${req.type}`);
    }
  },
}));
vi.mock('./page-layers.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./page-layers.js')>()),
  settled,
}));

const { captureFullPage } = await import('./full-page.js');

/** A 350 px page in a 200×100 viewport: four bands (the last one at the bottom, marker on top). */
function pageOf350(): void {
  document.body.innerHTML = '<header style="position: fixed">Nav</header><main>Content</main>';
  const de = document.documentElement;
  Object.defineProperty(de, 'clientHeight', { configurable: true, value: 100 });
  Object.defineProperty(de, 'clientWidth', { configurable: true, value: 200 });
  Object.defineProperty(de, 'scrollHeight', { configurable: true, value: 350 });
  let y = 0;
  vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => y);
  vi.spyOn(window, 'scrollX', 'get').mockImplementation(() => 0);
  vi.spyOn(window, 'scrollTo').mockImplementation(((opts: ScrollToOptions) => {
    y = Math.min(Math.max(0, opts.top ?? 0), 250);
  }) as typeof window.scrollTo);
}

/** The header's inline position, visibility and transition: the shot leaves only the first. */
function headerStyle(): string[] {
  const style = document.querySelector('header')?.style;
  return ['position', 'visibility', 'transition'].map((p) => style?.getPropertyValue(p) ?? 'none');
}

const options = () => ({
  veil: { lower: vi.fn(async () => undefined), lift: vi.fn() },
  progress: vi.fn(),
  signal: new AbortController().signal,
});

describe('captureFullPage (pipelined bands)', () => {
  beforeEach(() => {
    requests.length = 0;
    turns.length = 0;
    staleAnswers = [];
    settled.mockClear();
    pageOf350();
  });
  afterEach(() => vi.restoreAllMocks());

  it('asks for every band with its step, hides the fixed header after the first, and leaves no style behind', async () => {
    window.scrollTo({ top: 40 });
    const { recaptured } = await captureFullPage(options());
    expect(requests).toEqual([
      { step: 0, scrollY: 0, headerHidden: false },
      { step: 1, scrollY: 96, headerHidden: true },
      { step: 2, scrollY: 192, headerHidden: true },
      { step: 3, scrollY: 250, headerHidden: true },
    ]);
    expect(recaptured).toBe(0);
    // The window's turn is held before the page is touched and until it is put back.
    expect(turns).toEqual(['hold at 40', 'release at 40']);
    expect(headerStyle()).toEqual(['fixed', '', '']);
  });

  it('takes the stale bands again: the first with the fixed header shown and the page settled, the others with it hidden', async () => {
    staleAnswers = [[0, 2], [2]];
    const { recaptured } = await captureFullPage(options());
    expect(requests.slice(4)).toEqual([
      { step: 0, scrollY: 0, headerHidden: false },
      { step: 2, scrollY: 192, headerHidden: true },
      { step: 2, scrollY: 192, headerHidden: true },
    ]);
    expect(recaptured).toBe(3);
    // Once at the start, once for each later band (its scroll handlers), once for the first band
    // taken again and once for each later band taken again.
    expect(settled).toHaveBeenCalledTimes(7);
    expect(headerStyle()).toEqual(['fixed', '', '']);
  });

  it('hides a header that turns fixed only once the page scrolls, in every band after the first', async () => {
    document.body.innerHTML = '<header>Nav</header><main>Content</main>';
    // The page's scroll handler, run when the page has settled after a scroll.
    settled.mockImplementation(async () => {
      const header = document.querySelector('header');
      if (header) header.style.position = window.scrollY > 0 ? 'fixed' : '';
    });
    await captureFullPage(options());
    expect(requests.map((r) => r.headerHidden)).toEqual([false, true, true, true]);
    settled.mockImplementation(async () => undefined);
  });

  it('gives up on a band the worker keeps finding stale', async () => {
    staleAnswers = Array.from({ length: 10 }, () => [1]);
    await expect(captureFullPage(options())).rejects.toThrow(/did not finish painting/);
    // The first capture and five more.
    expect(requests.filter((r) => r.step === 1)).toHaveLength(6);
    expect(headerStyle()).toEqual(['fixed', '', '']);
  });
});
