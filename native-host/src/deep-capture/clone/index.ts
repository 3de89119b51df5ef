import type { AreaCapture } from '#shared/deep-capture/area-capture.js';
import type { SvgSanitizer } from '#shared/deep-capture/svg-sanitize.js';
import { renderCss } from './css.js';
import { renderHtml } from './html.js';
import { nodeClassNames } from './names.js';

/**
 * The standalone clone of a captured area (docs/design.md §7): `area-N-structure.html` and
 * `area-N-styles.css`, to be written next to the area's resources under
 * `page-element-references/resources/`. Pure: the caller says where each resource's file is.
 */

export interface CloneOptions {
  /** `area-N`. */
  areaId: string;
  /** A resource's path relative to the clone files (e.g. `3fa2….woff2`), or null when missing. */
  resourcePath(url: string): string | null;
  /** The image of a `pixels` node (relative path), or null. */
  pixelPath(nodeIndex: number): string | null;
  /** The SVG sanitizer (a real DOM's: shared/src/node/svg-sanitizer.ts in Node). */
  svg: SvgSanitizer;
  /** Default true; false renders the SingleFile-style baseline (every computed value, no reset). */
  reduced?: boolean;
}

export interface CloneFiles {
  html: string;
  css: string;
  /** The class name of each node: the `element_name` in referenced-elements.json. */
  names: string[];
  htmlFile: string;
  cssFile: string;
}

export function cloneFileNames(areaId: string): { htmlFile: string; cssFile: string } {
  return { htmlFile: `${areaId}-structure.html`, cssFile: `${areaId}-styles.css` };
}

export function buildClone(capture: AreaCapture, options: CloneOptions): CloneFiles {
  const names = nodeClassNames(capture.nodes);
  const { htmlFile, cssFile } = cloneFileNames(options.areaId);
  const html = renderHtml(capture, {
    title: `${options.areaId} — ${capture.title || capture.url}`,
    stylesheet: cssFile,
    names,
    resourcePath: options.resourcePath,
    pixelPath: options.pixelPath,
    svg: options.svg,
    backdropCount: capture.backdrop.length,
    clipped: capture.clip !== null,
  });
  const css = renderCss(capture, {
    areaId: options.areaId,
    sourceUrl: capture.url,
    names,
    resourcePath: options.resourcePath,
    reduced: options.reduced !== false,
  });
  return { html, css, names, htmlFile, cssFile };
}
