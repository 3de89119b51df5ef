import { executeFunction } from '../../platform/browser.js';

/**
 * Names reserved for toolbars, current and legacy. The project's own toolbar lives in a
 * host element `x-ipe-uiux-toolbar` with marker `window.__xipeUiuxToolbar` (an object whose
 * optional `destroy()` tears it down); the legacy one used `.xipe-toolbar` elements, the
 * `window.__xipeToolbarInjected` guard and `<style>`/`<link>` elements with ids starting `xipe-`.
 */
export const TOOLBAR_HOST_TAG = 'x-ipe-uiux-toolbar';
export const TOOLBAR_MARKER = '__xipeUiuxToolbar';
export const LEGACY_TOOLBAR_MARKER = '__xipeToolbarInjected';

/** Runs in the page (both worlds: the markers may live in either). Self-contained. */
export function removeToolbarsInPage(hostTag: string, marker: string, legacyMarker: string): number {
  const w = window as unknown as Record<string, unknown>;
  const current = w[marker];
  if (current !== null && typeof current === 'object') {
    const destroy = (current as { destroy?: unknown }).destroy;
    if (typeof destroy === 'function') {
      try {
        destroy.call(current);
      } catch {
        // removing the elements below is enough
      }
    }
  }
  delete w[marker];
  delete w[legacyMarker];
  let removed = 0;
  for (const el of document.querySelectorAll(
    `${hostTag}, .xipe-toolbar, style[id^="xipe-"], link[id^="xipe-"]`,
  )) {
    el.remove();
    removed += 1;
  }
  return removed;
}

/** Removes every toolbar (ours and the legacy one) and their guards from the tab's top frame. */
export async function removeToolbars(tabId: number): Promise<void> {
  const args: [string, string, string] = [TOOLBAR_HOST_TAG, TOOLBAR_MARKER, LEGACY_TOOLBAR_MARKER];
  await Promise.all(
    (['MAIN', 'ISOLATED'] as const).map((world) =>
      executeFunction({
        target: { tabId },
        world,
        injectImmediately: true,
        func: removeToolbarsInPage,
        args,
      }),
    ),
  );
}
