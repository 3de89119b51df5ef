// @vitest-environment happy-dom
import '#test/support/as-user-input.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StatusLine } from './status-line.js';

describe('status line', () => {
  let status: StatusLine;
  beforeEach(() => {
    vi.useFakeTimers();
    status = new StatusLine();
    document.body.append(status.el);
  });
  afterEach(() => {
    status.el.remove();
    vi.useRealTimers();
  });

  it("a passing confirmation gives the line back to the mode's hint it replaced", () => {
    status.set('Drag a rectangle. Enter captures, Esc cancels.');
    status.flash('Note saved.');
    expect(status.el.textContent).toBe('Note saved.');
    expect(status.el.className).toBe('status ok');
    vi.advanceTimersByTime(1500);
    expect(status.el.textContent).toBe('Drag a rectangle. Enter captures, Esc cancels.');
    expect(status.el.className).toBe('status');
  });

  it('keeps what was said after the confirmation', () => {
    status.set('Ready.');
    status.flash('Note saved.');
    status.set('Captured div.hero in 80 ms.', 'ok');
    vi.advanceTimersByTime(1500);
    expect(status.el.textContent).toBe('Captured div.hero in 80 ms.');
  });

  it('brings back an offer with its button', () => {
    const run = vi.fn();
    status.offer('Saved.', 'ok', { name: 'open', label: 'Open folder', run });
    status.flash('Note saved.');
    vi.advanceTimersByTime(1500);
    status.el.querySelector('button')?.click();
    expect(run).toHaveBeenCalledTimes(1);
  });
});
