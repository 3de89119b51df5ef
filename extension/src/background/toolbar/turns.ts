import type { JobSpec, Lease, QueueWait } from '../capture/scheduler.js';
import { bringToFront, captureTurns, schedule, waitText } from '../capture/turns.js';

/**
 * The designer's captures in the one capture queue (capture/turns.ts). The toolbar asks for its
 * turn before it hides itself and touches the page (`hold`), so while an agent's capture holds the
 * window its status line says so instead of looking frozen; its crops and bands then run in that
 * turn. A capture the toolbar makes without a turn takes one of its own. A held turn unused for
 * IDLE_MS (the page went away mid-capture) is given up.
 */

export const TOOLBAR_CLIENT = 'toolbar';
export const WAITING_TEXT = "Waiting for an agent's capture…";
const IDLE_MS = 15_000;

interface Held {
  lease: Lease;
  timer: ReturnType<typeof setTimeout>;
}

export class ToolbarTurns {
  private readonly held = new Map<number, Held>();

  /** `notice`: shows a line in the tab's toolbar status (null: the wait is over). */
  constructor(private readonly notice: (tabId: number, text: string | null) => void) {}

  private spec(tabId: number, windowId: number, label: string): JobSpec {
    return {
      windowId,
      tabId,
      label,
      client: TOOLBAR_CLIENT,
      onWait: (wait: QueueWait) =>
        this.notice(tabId, wait.state === 'waiting' ? `${WAITING_TEXT} (${waitText(wait)})` : null),
    };
  }

  /** Waits for the window and keeps it for the tab's captures; the time it waited. */
  async hold(tabId: number, windowId: number): Promise<number> {
    this.release(tabId);
    const lease = await captureTurns.acquire(this.spec(tabId, windowId, 'toolbar capture'));
    this.held.set(tabId, { lease, timer: this.idleTimer(tabId) });
    await this.showAfterWait(lease, tabId, windowId);
    return lease.queuedMs;
  }

  release(tabId: number): void {
    const held = this.held.get(tabId);
    if (held === undefined) return;
    this.held.delete(tabId);
    clearTimeout(held.timer);
    held.lease.release();
  }

  /** Runs a capture of the tab: in its held turn, or in one of its own. */
  run<T>(tabId: number, windowId: number, label: string, work: () => Promise<T>): Promise<T> {
    const held = this.held.get(tabId);
    if (held === undefined)
      return schedule(this.spec(tabId, windowId, label), async (lease) => {
        await this.showAfterWait(lease, tabId, windowId);
        return work();
      });
    clearTimeout(held.timer);
    held.timer = this.idleTimer(tabId);
    return work();
  }

  /** An agent's capture before it may have shown another tab of the window: show the designer's. */
  private async showAfterWait(lease: Lease, tabId: number, windowId: number): Promise<void> {
    if (lease.queuedMs > 0) await bringToFront(tabId, windowId).catch(() => undefined);
  }

  private idleTimer(tabId: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => this.release(tabId), IDLE_MS);
  }
}
