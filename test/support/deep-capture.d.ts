import type { Browser, Page } from 'puppeteer-core';
import type { AreaCapture, CaptureRect } from '#shared/deep-capture/area-capture.js';
import type { CloneFiles } from '../../native-host/src/deep-capture/clone/index.js';
import type { FixtureArea, FixtureServer } from './deep-fixtures.js';

export declare const ENGINE_FILE: string;
export declare const FIDELITY_TOLERANCE: number;

export declare function rectOf(
  page: Page,
  selector: string,
  options?: { maxHeight?: number },
): Promise<CaptureRect>;

export declare function captureArea(
  browser: Browser,
  page: Page,
  rect: CaptureRect,
  options?: { reduce?: boolean; scrollY?: number | null },
): Promise<{ capture: AreaCapture; screenshot: Buffer }>;

export interface WrittenResource {
  type: string;
  src: string;
  local_path: string;
  bytes: number;
}

export interface WrittenClone {
  htmlPath: string;
  cssPath: string;
  referencedPath: string;
  clone: CloneFiles;
  resources: WrittenResource[];
}

export declare function writeClone(options: {
  capture: AreaCapture;
  screenshot: Buffer;
  dir: string;
  areaId?: string;
  scratch: Page;
  reduced?: boolean;
}): Promise<WrittenClone>;

/** The browser's own PNG of a rect of the viewport (DevTools Page.captureScreenshot, scale 1). */
export declare function rectShot(
  page: import('puppeteer-core').Page,
  rect: { x: number; y: number; width: number; height: number },
): Promise<Buffer>;

export declare function renderOffline(
  browser: Browser,
  htmlPath: string,
  rect: CaptureRect,
  options?: { hover?: { x: number; y: number } | null },
): Promise<{ screenshot: Buffer; refused: string[] }>;

export declare function comparePngs(
  scratch: Page,
  a: Buffer,
  b: Buffer,
  tolerance?: number,
  /** `diff: false` skips encoding the diff image (an empty buffer comes back). */
  options?: { diff?: boolean },
): Promise<{ share: number; sizes: number[]; diff: Buffer }>;

export declare function measureArea(options: {
  browser: Browser;
  scratch: Page;
  server: FixtureServer;
  area: FixtureArea;
  dir: string;
  reduce?: boolean;
}): Promise<{
  rect: CaptureRect;
  capture: AreaCapture;
  written: WrittenClone;
  refused: string[];
  share: number;
}>;

export declare function median(values: number[]): number;
