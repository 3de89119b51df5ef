import { type QueueReport, queuedBehind } from '#shared/commands/capture-queue.js';
import { browser } from '../../platform/browser.js';
import { CaptureScheduler, type JobSpec, type Lease, type QueueWait } from './scheduler.js';

/**
 * The worker's one capture queue and what goes with it: every capture that needs a window's
 * visible tab (capture_screenshot, capture_area, the toolbar's crops and full pages, any later
 * renderer) runs through `schedule`. A job that brings another tab to the front remembers the tab
 * the window showed before; once the window has no job left, that tab is shown again, so the
 * designer's page comes back after an agent's captures.
 */

/** The tab each window showed before a job brought another forward (until the window is idle). */
const shownBefore = new Map<number, number>();
let onQueueChange: () => void = () => undefined;

export const captureTurns = new CaptureScheduler({
  onIdle: (windowId) => showAgain(windowId),
  onChange: () => onQueueChange(),
});

/** Called (at most once per task) whenever the queue changes: the worker tells the host. */
export function watchQueue(listener: () => void): void {
  let queued = false;
  onQueueChange = () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      listener();
    });
  };
}

/** Runs `work` once the window is free, holding it until `work` ends (see scheduler.ts). */
export function schedule<T>(spec: JobSpec, work: (lease: Lease) => Promise<T>): Promise<T> {
  return captureTurns.run(spec, work);
}

/** What an answer says of the wait (shared/src/commands/capture-queue.ts). */
export function queueReport(lease: Lease): QueueReport {
  return { queued_ms: lease.queuedMs, waited_for: [...lease.waitedFor] };
}

/** The text of a wait, for progress and the toolbar: "queued behind 2 captures: …". */
export function waitText(wait: QueueWait): string {
  if (wait.state === 'started') return `started after waiting ${wait.queued_ms} ms`;
  const ahead = wait.ahead.map((j) => `${j.label} of tab ${j.tab_id} (${j.client})`);
  return `${queuedBehind(ahead.length)}: ${ahead.join('; ')}`;
}

/**
 * captureVisibleTab shows the active tab of a focused window: make the target that. Asked again
 * here (not taken from a listing): a job before it in the queue may have changed the window.
 */
export async function bringToFront(tabId: number, windowId: number): Promise<void> {
  const tab = await browser.tabs.get(tabId);
  if (!tab.active) {
    if (!shownBefore.has(windowId)) {
      const [shown] = await browser.tabs.query({ windowId, active: true });
      if (shown?.id !== undefined) shownBefore.set(windowId, shown.id);
    }
    await browser.tabs.update(tabId, { active: true });
  }
  await browser.windows.update(windowId, { focused: true }).catch(() => undefined);
}

/** Shows the window's earlier tab again, as a job of its own (so no capture sees it switch). */
function showAgain(windowId: number): void {
  const tabId = shownBefore.get(windowId);
  if (tabId === undefined) return;
  shownBefore.delete(windowId);
  void schedule({ windowId, tabId, label: 'show the tab again', client: 'x-ipe' }, async () => {
    await browser.tabs.update(tabId, { active: true });
  }).catch(() => undefined); // the tab may be gone: nothing to show
}
