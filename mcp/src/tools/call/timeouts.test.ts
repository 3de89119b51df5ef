import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { XipeError } from '#shared/errors.js';
import { FakeBridge, toolContext } from '../../../test-support/fake-bridge.js';
import { defineTool } from '../define-tool.js';
import { runTool } from './run-tool.js';
import { TOOL_TIMEOUT_ENV, TOOL_TIMEOUT_GRACE_MS, timeoutSettings, toolTimeoutMs } from './timeouts.js';

describe('timeoutSettings', () => {
  it('defaults to 30 s for every tool', () => {
    expect(timeoutSettings(null, {})).toEqual({ perTool: {}, defaultMs: 30_000, problems: [] });
    expect(timeoutSettings({}, {})).toEqual({ perTool: {}, defaultMs: 30_000, problems: [] });
  });

  it('reads tool_timeouts from config, "default" being the default', () => {
    const s = timeoutSettings({ tool_timeouts: { default: 10_000, list_tabs: 2_000 } }, {});
    expect(s).toEqual({ perTool: { list_tabs: 2_000 }, defaultMs: 10_000, problems: [] });
  });

  it('lets XIPE_UIUX_TOOL_TIMEOUT_MS replace the default, and ignores a bad value with a reason', () => {
    const config = { tool_timeouts: { default: 10_000 } };
    expect(timeoutSettings(config, { [TOOL_TIMEOUT_ENV]: '500' }).defaultMs).toBe(500);
    for (const bad of ['abc', '-5', '0', '1.5']) {
      const s = timeoutSettings(config, { [TOOL_TIMEOUT_ENV]: bad });
      expect(s.defaultMs).toBe(10_000);
      expect(s.problems[0]).toContain(TOOL_TIMEOUT_ENV);
    }
  });
});

describe('toolTimeoutMs', () => {
  const settings = timeoutSettings({ tool_timeouts: { list_tabs: 2_000, save_uiux_reference: 1_000 } }, {});

  it('gives a call’s own timeout_ms plus a grace period first', () => {
    expect(toolTimeoutMs(settings, { name: 'list_tabs' }, { timeout_ms: 90_000 })).toBe(
      90_000 + TOOL_TIMEOUT_GRACE_MS,
    );
  });

  it('then the per-tool setting, then the default, never below what the tool declares unless named', () => {
    expect(toolTimeoutMs(settings, { name: 'list_tabs' }, {})).toBe(2_000);
    expect(toolTimeoutMs(settings, { name: 'bridge_status' }, {})).toBe(30_000);
    expect(toolTimeoutMs(settings, { name: 'slow', timeoutMs: 65_000 }, {})).toBe(65_000);
    expect(toolTimeoutMs(settings, { name: 'save_uiux_reference', timeoutMs: 65_000 }, {})).toBe(1_000);
  });

  it('ignores a timeout_ms that is not a positive number and caps what setTimeout can hold', () => {
    expect(toolTimeoutMs(settings, { name: 'x' }, { timeout_ms: 'soon' })).toBe(30_000);
    expect(toolTimeoutMs(settings, { name: 'x' }, { timeout_ms: -1 })).toBe(30_000);
    expect(toolTimeoutMs(timeoutSettings({ tool_timeouts: { x: 2 ** 40 } }, {}), { name: 'x' }, {})).toBe(
      2 ** 31 - 1,
    );
  });
});

describe('runTool time limit', () => {
  it('answers TIMEOUT with what to do, and aborts the handler’s signal', async () => {
    let seen: AbortSignal | undefined;
    const hanging = defineTool({
      name: 'hang_forever',
      description: 'never finishes',
      inputSchema: {},
      handler(_args, ctx) {
        seen = ctx.signal;
        return new Promise(() => {});
      },
    });
    const result = await runTool(hanging, {}, toolContext(new FakeBridge()), {
      timeouts: timeoutSettings({ tool_timeouts: { hang_forever: 30 } }, {}),
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: 'TIMEOUT',
      tool_name: 'hang_forever',
      details: { timeout_ms: 30 },
    });
    expect(String(result.structuredContent?.message)).toMatch(/tool_timeouts\.hang_forever/);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(XipeError);
  });

  it('uses a tool’s own timeout_ms argument (plus grace) instead of a shorter configured limit', async () => {
    const quick = defineTool({
      name: 'quick_tool',
      description: 'finishes after a tick',
      inputSchema: { timeout_ms: z.number().default(50) },
      async handler(args) {
        await new Promise((r) => setTimeout(r, 20));
        return { waited_for: args.timeout_ms };
      },
    });
    // 1 ms configured, but the call's own timeout_ms wins, so the handler finishes.
    const result = await runTool(quick, {}, toolContext(new FakeBridge()), {
      timeouts: timeoutSettings({ tool_timeouts: { quick_tool: 1 } }, {}),
    });
    expect(result.structuredContent).toEqual({ status: 'success', waited_for: 50 });
  });

  it('pauses the limit while the browser says the call is queued, then gives it the full limit from its start', async () => {
    const heard: string[] = [];
    const queued = defineTool({
      name: 'queued_tool',
      description: 'waits its turn, then works',
      inputSchema: {},
      async handler(_args, ctx) {
        ctx.progress?.({
          type: 'progress',
          id: 1,
          state: 'queued',
          message: 'queued behind 1 capture',
          queued_ms: 0,
        });
        await new Promise((r) => setTimeout(r, 120)); // waits longer than the limit
        ctx.progress?.({ type: 'progress', id: 1, state: 'started', message: 'started', queued_ms: 120 });
        await new Promise((r) => setTimeout(r, 40)); // then works within it
        return { done: true };
      },
    });
    const ctx = {
      ...toolContext(new FakeBridge()),
      progress: (p: { message: string }) => heard.push(p.message),
    };
    const result = await runTool(queued, {}, ctx, {
      timeouts: timeoutSettings({ tool_timeouts: { queued_tool: 60 } }, {}),
    });
    expect(result.structuredContent).toMatchObject({ done: true });
    expect(heard).toEqual(['queued behind 1 capture', 'started']);
  });

  it('still times out a call that started and then takes longer than its limit', async () => {
    const slow = defineTool({
      name: 'slow_after_queue',
      description: 'waits its turn, then overruns',
      inputSchema: {},
      async handler(_args, ctx) {
        ctx.progress?.({ type: 'progress', id: 1, state: 'started', message: 'started', queued_ms: 5 });
        return new Promise(() => {});
      },
    });
    const result = await runTool(slow, {}, toolContext(new FakeBridge()), {
      timeouts: timeoutSettings({ tool_timeouts: { slow_after_queue: 30 } }, {}),
    });
    expect(result.structuredContent).toMatchObject({ error: 'TIMEOUT', details: { timeout_ms: 30 } });
  });

  it('passes a client cancellation on to the handler', async () => {
    const client = new AbortController();
    let seen: AbortSignal | undefined;
    const waiting = defineTool({
      name: 'wait_for_abort',
      description: 'waits for its signal',
      inputSchema: {},
      handler(_args, ctx) {
        seen = ctx.signal;
        return new Promise((_, reject) => {
          ctx.signal.addEventListener('abort', () =>
            reject(new XipeError('TIMEOUT', 'cancelled by the client')),
          );
        });
      },
    });
    const pending = runTool(waiting, {}, toolContext(new FakeBridge(), { signal: client.signal }));
    client.abort();
    const result = await pending;
    expect(seen?.aborted).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'TIMEOUT', message: 'cancelled by the client' });
  });
});
