import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AreaPixelsResult } from '#shared/commands/capture-area.js';
import { PendingPixels } from './pending-pixels.js';

const PIXELS: AreaPixelsResult = { png: 'iVBORw0KGgo=', width: 4, height: 3, scale: 1, cuts: [] };

let n = 0;
const tickets = () => `t-${++n}`;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('PendingPixels', () => {
  it('hands pixels that are still coming to whoever redeems the ticket, once', async () => {
    const pending = new PendingPixels(1_000, tickets);
    let finish: (p: AreaPixelsResult) => void = () => {};
    const ticket = pending.hold(new Promise((resolve) => (finish = resolve)));
    const redeemed = pending.take(ticket);
    finish(PIXELS);
    await expect(redeemed).resolves.toEqual(PIXELS);
    await expect(pending.take(ticket)).rejects.toMatchObject({
      code: 'PROTOCOL_ERROR',
      message: expect.stringContaining(ticket),
    });
    expect(pending.size).toBe(0);
  });

  it('reports a failed screenshot to the redeemer, and no unhandled rejection before that', async () => {
    const pending = new PendingPixels(1_000, tickets);
    const ticket = pending.hold(Promise.reject(new Error('Tab 5 was closed')));
    await vi.advanceTimersByTimeAsync(10);
    await expect(pending.take(ticket)).rejects.toThrow('Tab 5 was closed');
  });

  it('drops pixels nobody redeems within the keep time after they settle, not before', async () => {
    const pending = new PendingPixels(1_000, tickets);
    let finish: (p: AreaPixelsResult) => void = () => {};
    const slow = pending.hold(new Promise((resolve) => (finish = resolve)));
    const done = pending.hold(Promise.resolve(PIXELS));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pending.size).toBe(1); // the slow one is still being captured
    finish(PIXELS);
    await vi.advanceTimersByTimeAsync(999);
    await expect(pending.take(slow)).resolves.toEqual(PIXELS);
    await expect(pending.take(done)).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    expect(pending.size).toBe(0);
  });
});
