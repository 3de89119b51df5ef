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
  /**
   * Top of the viewport strip (CSS px, `markerHeight` tall) this band leaves unused, where a
   * marker proves the capture shows this band's scroll position; null without markers.
   */
  markerY: number | null;
}

export interface StitchPlan {
  /** Page row (CSS px) of the output's row 0: the region's top, 0 for the whole page. */
  top: number;
  width: number;
  /** Output height in CSS px (≤ the page height and the caps). */
  height: number;
  /** The page was taller than what is captured. */
  capped: boolean;
  pageHeight: number;
  steps: StitchStep[];
}

export interface PageMetrics {
  /** The scrolling element's scrollHeight (CSS px). */
  scrollHeight: number;
  /** Visible viewport width and height without scrollbars (CSS px). */
  viewportWidth: number;
  viewportHeight: number;
  devicePixelRatio: number;
}

/**
 * Bands that tile the output: the whole page, or with `region` one stretch of it (an element taller
 * than the viewport: `top` and `height` in page CSS px; the output's row 0 is the region's top).
 * With `markerHeight` > 0, every band leaves a strip of the viewport that height unused, for a
 * marker painted in the same frame as the scroll: the bottom strip, except for one last band at
 * the bottom of the page, which leaves the top strip. It costs one capture more than tiling whole
 * viewports, and it is what lets a stale frame (an old scroll position, or the toolbar still
 * showing) be recognised and captured again.
 */
export function planFullPage(
  page: PageMetrics,
  {
    maxCssHeight = FULL_PAGE_MAX_CSS_HEIGHT,
    markerHeight = 0,
    region = null as { top: number; height: number } | null,
  } = {},
): StitchPlan {
  const vh = Math.max(1, Math.floor(page.viewportHeight));
  const pageHeight = Math.max(vh, Math.ceil(page.scrollHeight));
  const deviceCap = Math.floor(MAX_CANVAS_DEVICE_PX / Math.max(1, page.devicePixelRatio));
  const top = region ? Math.min(Math.max(0, Math.round(region.top)), pageHeight - 1) : 0;
  const wanted = region ? Math.max(1, Math.min(Math.round(region.height), pageHeight - top)) : pageHeight;
  const height = Math.min(wanted, maxCssHeight, deviceCap);
  const end = top + height;
  const maxScroll = pageHeight - vh;
  const m = markerHeight > 0 && vh > 4 * markerHeight ? markerHeight : 0;
  // Page rows a band with its marker at the bottom can reach: up to `m` above the page's end.
  const split = end <= maxScroll + vh - m ? end : Math.max(top, maxScroll + m);
  const steps: StitchStep[] = [];
  for (let y = top; y < split; ) {
    const scrollY = Math.min(y, maxScroll);
    const srcY = y - scrollY;
    const band = Math.min(split - y, vh - m - srcY);
    steps.push({ scrollY, srcY, height: band, destY: y - top, markerY: m > 0 ? vh - m : null });
    y += band;
  }
  if (split < end) {
    steps.push({
      scrollY: maxScroll,
      srcY: split - maxScroll,
      height: end - split,
      destY: split - top,
      markerY: 0,
    });
  }
  return { top, width: Math.floor(page.viewportWidth), height, capped: height < wanted, pageHeight, steps };
}

/**
 * Re-aligns a step with the scroll position actually reached. The band keeps its destination;
 * its source moves by the difference (`top`: the region's top in the page, 0 for the whole page).
 * Returns null when the band is not inside the viewport any more, or would overlap its marker
 * strip (the page refused to scroll there), so the caller can retry or stop.
 */
export function alignStep(
  step: StitchStep,
  actualScrollY: number,
  viewportHeight: number,
  markerHeight = 0,
  top = 0,
): StitchStep | null {
  const srcY = top + step.destY - actualScrollY;
  if (srcY < 0 || srcY + step.height > viewportHeight + 0.5) return null;
  if (step.markerY !== null && srcY < step.markerY + markerHeight && step.markerY < srcY + step.height)
    return null;
  return { ...step, scrollY: actualScrollY, srcY };
}
