import { describe, expect, it } from 'vitest';
import { type ListTabsResult, XipeError } from '#shared/index.js';
import { browserInfo, FakeBridge, hostInfo, toolContext } from '../../test-support/fake-bridge.js';
import { runTool } from './call/run-tool.js';
import { listTabsTool } from './list-tabs.js';

const tabs = (browser: string, list: Array<[id: number, window: number, index: number]>): ListTabsResult => ({
  browser: browserInfo(browser),
  tabs: list.map(([id, window_id, index]) => ({
    id,
    window_id,
    index,
    url: `https://${browser}.test/${id}`,
    title: `${browser} ${id}`,
    active: index === 0,
    focused_window: false,
  })),
});

async function call(bridge: FakeBridge) {
  const result = await runTool(listTabsTool, {}, toolContext(bridge, { toolName: 'list_tabs' }));
  return {
    isError: result.isError === true,
    body: JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>,
  };
}

describe('list_tabs', () => {
  it('merges every browser in a stable order and numbers page_index from 0', async () => {
    const bridge = new FakeBridge([
      { info: hostInfo(30, 'b-two'), answer: () => tabs('b-two', [[9, 1, 0]]) },
      {
        info: hostInfo(10, 'a-one'),
        answer: () =>
          tabs('a-one', [
            [3, 5, 1],
            [2, 5, 0],
            [1, 2, 0],
          ]),
      },
    ]);
    const { isError, body } = await call(bridge);
    expect(isError).toBe(false);
    expect(body.tabs).toEqual([
      {
        page_index: 0,
        browser_id: 'a-one',
        browser: 'Chromium',
        profile: expect.any(String),
        window_id: 2,
        tab_id: 1,
        index: 0,
        url: 'https://a-one.test/1',
        title: 'a-one 1',
        active: true,
      },
      {
        page_index: 1,
        browser_id: 'a-one',
        browser: 'Chromium',
        profile: expect.any(String),
        window_id: 5,
        tab_id: 2,
        index: 0,
        url: 'https://a-one.test/2',
        title: 'a-one 2',
        active: true,
      },
      {
        page_index: 2,
        browser_id: 'a-one',
        browser: 'Chromium',
        profile: expect.any(String),
        window_id: 5,
        tab_id: 3,
        index: 1,
        url: 'https://a-one.test/3',
        title: 'a-one 3',
        active: false,
      },
      {
        page_index: 3,
        browser_id: 'b-two',
        browser: 'Chromium',
        profile: expect.any(String),
        window_id: 1,
        tab_id: 9,
        index: 0,
        url: 'https://b-two.test/9',
        title: 'b-two 9',
        active: true,
      },
    ]);
    expect(body.browsers).toEqual([
      expect.objectContaining({
        browser_id: 'a-one',
        host_pid: 10,
        tab_count: 3,
        error: null,
        extension_version: '0.1.0',
        user_scripts_allowed: true,
      }),
      expect.objectContaining({ browser_id: 'b-two', host_pid: 30, tab_count: 1, error: null }),
    ]);
    expect(bridge.sent.every((s) => s.command === 'list_tabs')).toBe(true);
  });

  it('reports a host without an extension instead of failing', async () => {
    const bridge = new FakeBridge([
      { info: hostInfo(10, 'a-one'), answer: () => tabs('a-one', [[1, 1, 0]]) },
      {
        info: hostInfo(11, null),
        answer: () => {
          throw new XipeError('EXTENSION_NOT_CONNECTED', 'No browser extension is connected to this host.');
        },
      },
    ]);
    const { isError, body } = await call(bridge);
    expect(isError).toBe(false);
    expect(body.tabs).toHaveLength(1);
    expect(body.browsers).toContainEqual(
      expect.objectContaining({
        browser_id: null,
        host_pid: 11,
        tab_count: 0,
        error: {
          code: 'EXTENSION_NOT_CONNECTED',
          message: 'No browser extension is connected to this host.',
        },
      }),
    );
  });

  it('fails with the host error when no host could list tabs', async () => {
    const bridge = new FakeBridge([
      {
        info: hostInfo(11, null),
        answer: () => {
          throw new XipeError(
            'EXTENSION_NOT_CONNECTED',
            'No browser extension is connected to this host. Open Chrome.',
          );
        },
      },
    ]);
    const { isError, body } = await call(bridge);
    expect(isError).toBe(true);
    expect(body).toMatchObject({
      error: 'EXTENSION_NOT_CONNECTED',
      tool_name: 'list_tabs',
      details: { browsers: [expect.objectContaining({ host_pid: 11 })] },
    });
  });

  it('passes BACKEND_UNREACHABLE on when there is no host', async () => {
    const { body } = await call(new FakeBridge([]));
    expect(body).toMatchObject({ error: 'BACKEND_UNREACHABLE', tool_name: 'list_tabs' });
  });

  it('refuses unknown arguments', async () => {
    const result = await runTool(listTabsTool, { browser: 'x' }, toolContext(new FakeBridge([])));
    expect(result.structuredContent).toMatchObject({ error: 'VALIDATION_ERROR' });
  });
});
