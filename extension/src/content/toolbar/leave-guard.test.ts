// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { LeaveGuard } from './leave-guard.js';

/** Whether leaving now would be held (a listener called preventDefault on beforeunload). */
function leavingIsHeld(): boolean {
  const e = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(e);
  return e.defaultPrevented;
}

describe('LeaveGuard', () => {
  it('holds the page only with unsaved captures after the designer used the toolbar, and lets go after', () => {
    const abort = new AbortController();
    const guard = new LeaveGuard(abort.signal);
    guard.set(true);
    // Unsaved items from an earlier visit, but an idle toolbar: nothing is added to the page.
    expect([guard.active, leavingIsHeld()]).toEqual([false, false]);
    guard.touched();
    expect([guard.active, leavingIsHeld()]).toEqual([true, true]);
    guard.touched();
    guard.set(true);
    expect(leavingIsHeld()).toBe(true);
    // Saved (or removed): the prompt goes.
    guard.set(false);
    expect([guard.active, leavingIsHeld()]).toEqual([false, false]);
    guard.set(true);
    expect(leavingIsHeld()).toBe(true);
    // The toolbar closed: no listener is left behind.
    abort.abort();
    expect(leavingIsHeld()).toBe(false);
    guard.set(true);
    expect([guard.active, leavingIsHeld()]).toEqual([false, false]);
  });
});
