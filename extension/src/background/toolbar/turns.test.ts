import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The designer's turn in the worker's one capture queue: it waits behind an agent's capture and
 * says so, its captures run in the turn it holds (no agent's capture slips in between), and a
 * turn nobody uses any more is given up.
 */
const active = new Map<number, boolean>([
  [1, true],
  [2, false],
]);
const updates: number[] = [];
vi.mock('../../platform/browser.js', () => ({
  browser: {
    tabs: {
      get: async (id: number) => ({ id, active: active.get(id) ?? false, windowId: 9 }),
      query: async () => [...active].filter(([, a]) => a).map(([id]) => ({ id })),
      update: async (id: number) => {
        updates.push(id);
        for (const key of active.keys()) active.set(key, key === id);
      },
    },
    windows: { update: async () => undefined },
  },
}));

const { captureTurns } = await import('../capture/turns.js');
const { ToolbarTurns, WAITING_TEXT } = await import('./turns.js');

const agentJob = () => ({ windowId: 9, tabId: 2, label: 'capture_screenshot full_page', client: 'agent-1' });

afterEach(() => {
  vi.useRealTimers();
});

describe('ToolbarTurns', () => {
  it("waits behind an agent's capture, says so, then shows the designer's tab again and holds the window", async () => {
    const notices: Array<string | null> = [];
    const turns = new ToolbarTurns((_tab, text) => notices.push(text));
    const agent = await captureTurns.acquire(agentJob());
    // The agent's job brought its tab forward.
    active.set(1, false);
    active.set(2, true);
    const held = turns.hold(1, 9);
    await new Promise((r) => setTimeout(r, 30));
    expect(notices).toEqual([
      `${WAITING_TEXT} (queued behind 1 capture: capture_screenshot full_page of tab 2 (agent-1))`,
    ]);
    agent.release();
    expect(await held).toBeGreaterThan(0);
    expect(notices.at(-1)).toBeNull();
    expect(active.get(1)).toBe(true);

    // While the turn is held, an agent's capture waits and the toolbar's captures run at once.
    const order: string[] = [];
    const next = captureTurns.run(agentJob(), async () => {
      order.push('agent');
    });
    await turns.run(1, 9, 'toolbar crop', async () => {
      order.push('crop');
    });
    await turns.run(1, 9, 'toolbar full page band', async () => {
      order.push('band');
    });
    turns.release(1);
    await next;
    expect(order).toEqual(['crop', 'band', 'agent']);
    await vi.waitFor(() => expect(captureTurns.list()).toEqual([]));
  });

  it('takes a turn of its own for a capture made without one', async () => {
    const turns = new ToolbarTurns(() => undefined);
    const seen: string[] = [];
    await turns.run(1, 9, 'toolbar sample', async () => {
      seen.push(...captureTurns.list().map((j) => `${j.label} ${j.client} ${j.state}`));
    });
    expect(seen).toEqual(['toolbar sample toolbar running']);
  });

  it('gives up a turn nobody used for a while', async () => {
    vi.useFakeTimers();
    const turns = new ToolbarTurns(() => undefined);
    await turns.hold(1, 9);
    expect(captureTurns.list().map((j) => j.client)).toEqual(['toolbar']);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(captureTurns.list().filter((j) => j.client === 'toolbar')).toEqual([]);
  });
});
