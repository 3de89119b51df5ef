import type { CollectedElement, CssRect } from '#shared/toolbar-messages.js';
import { toPageBox } from './dom.js';
import { send } from './runtime.js';
import type { StatusLine } from './status-line.js';
import type { ElementsView } from './views/elements-view.js';

/**
 * The deep part of a capture (docs/design.md §7), right after the item and its crop are stored: the worker
 * runs the deep-capture engine in this page (its own bundle, injected on demand, so the toolbar
 * carries none of it), fetches the area's fonts and images and stages everything with the item
 * until Save. It takes about a second, so the status line shows progress meanwhile; if it fails,
 * the item keeps its plain crop and the status line says why.
 */

/** Typical duration (ms): the bar creeps towards the end at this pace and never claims to be done. */
const TYPICAL_MS = 1200;

/** Progress shown for a job of unknown length: half way after TYPICAL_MS, never more than 95 %. */
export function creep(elapsedMs: number): number {
  return Math.min(0.95, 1 - 2 ** (-elapsedMs / TYPICAL_MS));
}

export function deepStatus(item: CollectedElement, ms: number): string {
  const d = item.deep;
  if (!d) return `Captured ${item.selector}.`;
  const skipped = d.skipped_count > 0 ? ` (${d.skipped_count} could not be fetched)` : '';
  const files = `${d.resource_count} font${d.resource_count === 1 ? '' : 's'} and image${d.resource_count === 1 ? '' : 's'}`;
  return `Deep-captured ${item.selector}: ${d.element_count} elements, ${files}${skipped} in ${ms} ms.`;
}

/**
 * Deep-captures `item` (its crop taken from viewport rectangle `visible` a moment ago). Resolves
 * with the item as the worker now stores it, or null when the deep part failed (reported).
 */
export async function deepCapture(
  item: CollectedElement,
  visible: CssRect,
  instruction: string,
  status: StatusLine,
  list: Pick<ElementsView, 'deepRunning'>,
): Promise<CollectedElement | null> {
  const started = performance.now();
  list.deepRunning(item.key);
  const text = `Deep capture of ${item.selector}: reading its elements and styles, fetching fonts and images…`;
  status.progress(text, 0);
  const timer = setInterval(() => status.progress(text, creep(performance.now() - started)), 100);
  try {
    const stored = await send({
      type: 'xipe-toolbar:deep_capture',
      key: item.key,
      rect: toPageBox(visible),
      instruction,
    });
    status.set(deepStatus(stored, Math.round(performance.now() - started)), 'ok');
    return stored;
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
    status.set(`Deep capture failed (${why}); the plain capture of ${item.selector} is kept.`, 'error');
    return null;
  } finally {
    clearInterval(timer);
    list.deepRunning(null);
  }
}
