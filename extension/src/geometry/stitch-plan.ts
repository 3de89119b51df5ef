/**
 * extension/src/geometry/ holds the pure rectangle and band arithmetic that both sides of a capture
 * need: the content script (what to mask, select and scroll to) and the service worker (what to cut
 * out of a capture, where to draw a band). No DOM, no extension API and no Node, so both bundles
 * import it and neither imports the other's folder. It is not in shared/ because no Node process
 * uses it.
 */

/**
 * Scroll-and-stitch plan for a full-page screenshot. Each step scrolls the page, captures the
 * visible tab and copies one horizontal band of it into the output. Pure: the DOM side performs
 * the scrolls and re-aligns each band with `alignStep` using the scroll position the page really
 * reached (scroll snapping or a page's own scroll handlers can move it).
 */

/** Longest page we stitch, in CSS px; taller pages are cut there and the UI says so. */
export const FULL_PAGE_MAX_CSS_HEIGHT = 16_000;
/** Chrome refuses canvases taller than 32 767 device px; stay below with margin. */
export const MAX_CANVAS_DEVICE_PX = 32_000;

export interface StitchStep {
  /** Where to scroll (window.scrollY, CSS px). */
  scrollY: number;
  /** Top of the band inside the viewport capture (CSS px). */
  srcY: number;
  /** Band height (CSS px). */
  height: number;
  /** Where the band goes in the output (CSS px). */
  destY: number;
}

export interface StitchPlan {
  width: number;
  /** Output height in CSS px (≤ the page height and the caps). */
  height: number;
  /** The page was taller than what is captured. */
  capped: boolean;
  pageHeight: number;
  steps: StitchStep[];
}

export interface PageMetrics {
  /** document scrollHeight (CSS px). */
  scrollHeight: number;
  /** Visible viewport width and height without scrollbars (CSS px). */
  viewportWidth: number;
  viewportHeight: number;
  devicePixelRatio: number;
}

export function planFullPage(page: PageMetrics, maxCssHeight = FULL_PAGE_MAX_CSS_HEIGHT): StitchPlan {
  const vh = Math.max(1, Math.floor(page.viewportHeight));
  const pageHeight = Math.max(vh, Math.ceil(page.scrollHeight));
  const deviceCap = Math.floor(MAX_CANVAS_DEVICE_PX / Math.max(1, page.devicePixelRatio));
  const limit = Math.min(maxCssHeight, deviceCap);
  const height = Math.min(pageHeight, limit);
  const maxScroll = pageHeight - vh;
  const steps: StitchStep[] = [];
  for (let destY = 0; destY < height; destY += vh) {
    const band = Math.min(vh, height - destY);
    const scrollY = Math.min(destY, maxScroll);
    steps.push({ scrollY, srcY: destY - scrollY, height: band, destY });
  }
  return { width: Math.floor(page.viewportWidth), height, capped: height < pageHeight, pageHeight, steps };
}

/**
 * Re-aligns a step with the scroll position actually reached. The band keeps its destination;
 * its source moves by the difference. Returns null when the band is not inside the viewport any
 * more (the page refused to scroll there), so the caller can retry or stop.
 */
export function alignStep(
  step: StitchStep,
  actualScrollY: number,
  viewportHeight: number,
): StitchStep | null {
  const srcY = step.destY - actualScrollY;
  if (srcY < 0 || srcY + step.height > viewportHeight + 0.5) return null;
  return { ...step, scrollY: actualScrollY, srcY };
}
