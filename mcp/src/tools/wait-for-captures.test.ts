import { describe, expect, it } from 'vitest';
import type { CaptureEvent } from '#shared/index.js';
import { FakeBridge, hostInfo, toolContext } from '../../test-support/fake-bridge.js';
import { runTool } from './call/run-tool.js';
import { waitForCapturesTool } from './wait-for-captures.js';

const event = (seq: number): CaptureEvent => ({
  seq,
  type: 'element_picked',
  time: '2025-01-01T00:00:00.000Z',
  browser_id: 'b',
  tab: { id: 1, url: 'https://x.test/' },
  data: { key: `k${seq}`, selector: 'h1' },
});

async function call(bridge: FakeBridge, args: Record<string, unknown>, signal?: AbortSignal) {
  const result = await runTool(
    waitForCapturesTool,
    args,
    toolContext(bridge, { toolName: 'wait_for_captures', ...(signal ? { signal } : {}) }),
  );
  return { isError: result.isError === true, body: result.structuredContent as Record<string, unknown> };
}

describe('wait_for_captures', () => {
  it('returns what is queued at once, then nothing twice', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: () => ({}) }]);
    bridge.pushCaptures(event(1), event(2));
    bridge.capturesDropped = 3;
    const first = await call(bridge, {});
    expect(first.body).toMatchObject({ events: [event(1), event(2)], dropped: 3, timed_out: false });
    expect(bridge.captureWaits[0]?.timeoutMs).toBe(30_000);
    const second = await call(bridge, { timeout_ms: 0 });
    expect(second.body).toMatchObject({ events: [], dropped: 0, timed_out: true });
  });

  it('waits for the first event', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: () => ({}) }]);
    const pending = call(bridge, { timeout_ms: 60_000 });
    setTimeout(() => bridge.pushCaptures(event(5)), 10);
    expect((await pending).body).toMatchObject({ events: [event(5)] });
  });

  it('refuses a timeout over the maximum', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: () => ({}) }]);
    const { body } = await call(bridge, { timeout_ms: 120_001 });
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.stringContaining('timeout_ms') });
  });

  it('says no host is reachable instead of waiting', async () => {
    const { body } = await call(new FakeBridge([]), { timeout_ms: 60_000 });
    expect(body).toMatchObject({ error: 'BACKEND_UNREACHABLE', tool_name: 'wait_for_captures' });
  });
});
