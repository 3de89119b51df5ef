import type { Browser, Page } from 'puppeteer-core';

export declare function openCorpusPage(browser: Browser, url: string): Promise<Page>;

export interface RealAreaResult {
  /** Clone vs the browser's own screenshot taken before the capture. */
  share: number;
  /** Clone vs the pipeline's own screenshot (today's crop). */
  shareVsCrop: number;
  referenceVsCrop: number;
  rect: { x: number; y: number; width: number; height: number };
  elements: number;
  /** The page's mode as the capture recorded it (null: an engine that does not record it). */
  compatMode: 'CSS1Compat' | 'BackCompat' | null;
  /** The clone's first line (its doctype, or `<html>` for a quirks-mode clone). */
  cloneHead: string;
  /** Where reference, crop, clone render and diff were kept (an area under `keepBelow`), else null. */
  dir: string | null;
}

export declare function measureRealArea(options: {
  browser: Browser;
  scratch: Page;
  url: string;
  selector: string;
  dir: string;
  keepBelow?: number;
}): Promise<RealAreaResult>;
