import { describe, expect, it } from 'vitest';
import { type ListTabsResult, XipeError } from '#shared/index.js';
import {
  browserInfo,
  type FakeAnswer,
  FakeBridge,
  hostInfo,
  toolContext,
} from '../../test-support/fake-bridge.js';
import { runTool } from './call/run-tool.js';
import { injectToolbarTool } from './inject-toolbar.js';
import { TOOL_COMMANDS } from './registry.js';

const TAB = { id: 7, url: 'https://example.com/a', title: 'A' };

const tabs = (browser: string, ids: number[]): ListTabsResult => ({
  browser: browserInfo(browser),
  tabs: ids.map((id, index) => ({
    id,
    window_id: 1,
    index,
    url: `https://${browser}.test/${id}`,
    title: `t${id}`,
    active: index === 0,
    focused_window: true,
  })),
});

async function call(bridge: FakeBridge, args: Record<string, unknown>) {
  const result = await runTool(injectToolbarTool, args, toolContext(bridge, { toolName: 'inject_toolbar' }));
  return { isError: result.isError === true, body: result.structuredContent as Record<string, unknown> };
}

describe('inject_toolbar', () => {
  it('sends the target at the top level of params (the shape `x-ipe-uiux start` uses too)', async () => {
    let open = false;
    const answer: FakeAnswer = (command) => {
      if (command !== 'inject_toolbar') throw new Error(command);
      const already = open;
      open = true;
      return { tab: TAB, already_open: already };
    };
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer }]);
    const first = await call(bridge, { url_contains: 'example.com' });
    expect(first).toMatchObject({
      isError: false,
      body: { status: 'success', already_open: false, tab: TAB },
    });
    expect(bridge.sent[0]?.params).toEqual({ url_contains: 'example.com', cleanup_before: false });
    const second = await call(bridge, { url_contains: 'example.com' });
    expect(second.body).toMatchObject({ already_open: true });
    await call(bridge, { tab_id: 7, cleanup_before: true });
    expect(bridge.sent[2]?.params).toEqual({ tab_id: 7, cleanup_before: true });
  });

  it('resolves page_index through list_tabs and routes to that browser', async () => {
    const answer =
      (browser: string, ids: number[]): FakeAnswer =>
      (command, params) =>
        command === 'list_tabs'
          ? tabs(browser, ids)
          : {
              tab: { id: (params as { tab_id: number }).tab_id, url: browser, title: '' },
              already_open: false,
            };
    const bridge = new FakeBridge([
      { info: hostInfo(1, 'zeta'), answer: answer('zeta', [9]) },
      { info: hostInfo(2, 'alpha'), answer: answer('alpha', [3, 4]) },
    ]);
    const { body } = await call(bridge, { page_index: 2 });
    expect(body).toMatchObject({ tab: { id: 9, url: 'zeta' } });
    expect(bridge.sent.at(-1)).toMatchObject({
      command: TOOL_COMMANDS.inject_toolbar,
      options: { browser: 'zeta' },
    });
  });

  it('refuses two targets and unknown arguments before sending anything', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: () => ({}) }]);
    const two = await call(bridge, { tab_id: 1, page_index: 0 });
    expect(two.body).toMatchObject({ error: 'VALIDATION_ERROR', tool_name: 'inject_toolbar' });
    const unknown = await call(bridge, { code: 'x' });
    expect(unknown.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect(bridge.sent).toEqual([]);
  });

  it('passes the extension’s error on', async () => {
    const bridge = new FakeBridge([
      {
        info: hostInfo(1, 'b'),
        answer: () => {
          throw new XipeError('INJECTION_BLOCKED', 'chrome:// pages cannot be scripted');
        },
      },
    ]);
    const { isError, body } = await call(bridge, {});
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'INJECTION_BLOCKED', tool_name: 'inject_toolbar' });
  });
});
