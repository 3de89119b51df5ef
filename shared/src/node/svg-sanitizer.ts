import { createSvgSanitizer, type SvgSanitizer, type SvgWindow } from '../deep-capture/svg-sanitize.js';

/**
 * The SVG sanitizer in Node (the host, the final gate before anything is written): DOMPurify over
 * jsdom's DOM, loaded on first use (the host starts without it; save_area asks for it as a capture
 * starts) and kept for the process. jsdom runs no scripts and loads no resources unless asked, so
 * parsing hostile markup reaches nothing.
 */

let loading: Promise<SvgSanitizer> | null = null;

export function loadSvgSanitizer(): Promise<SvgSanitizer> {
  loading ??= import('jsdom').then(({ JSDOM }) => {
    const { window } = new JSDOM('<!doctype html><html><head></head><body></body></html>');
    return createSvgSanitizer(window as unknown as SvgWindow);
  });
  return loading;
}
