import { describe, expect, it } from 'vitest';
import { XipeError } from '#shared/index.js';
import { type FakeAnswer, FakeBridge, hostInfo, toolContext } from '../../test-support/fake-bridge.js';
import { runTool } from './call/run-tool.js';
import { captureScreenshotTool } from './capture-screenshot.js';
import { TOOL_COMMANDS } from './registry.js';

const TAB = { id: 7, url: 'https://example.com/a', title: 'A' };
const written: FakeAnswer = (command, params) => {
  if (command !== 'save_screenshot') throw new Error(command);
  const p = params as { mode: string };
  return {
    path: '/workspace/shots/a.png',
    relative_path: 'shots/a.png',
    width: 10,
    height: 20,
    bytes: 300,
    mode: p.mode,
    tab: TAB,
  };
};

async function call(bridge: FakeBridge, args: Record<string, unknown>) {
  const result = await runTool(
    captureScreenshotTool,
    args,
    toolContext(bridge, { toolName: 'capture_screenshot' }),
  );
  return { isError: result.isError === true, body: result.structuredContent as Record<string, unknown> };
}

describe('capture_screenshot', () => {
  it('asks the host to capture and write (bytes never come back unless asked)', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: written }]);
    const { isError, body } = await call(bridge, {
      mode: 'element',
      selector: 'h1',
      url_contains: 'example',
      output_path: 'shots/a.png',
    });
    expect(isError).toBe(false);
    expect(body).toEqual({
      status: 'success',
      path: '/workspace/shots/a.png',
      relative_path: 'shots/a.png',
      width: 10,
      height: 20,
      bytes: 300,
      mode: 'element',
      tab: TAB,
    });
    expect(bridge.sent[0]).toMatchObject({
      command: TOOL_COMMANDS.capture_screenshot,
      params: {
        url_contains: 'example',
        mode: 'element',
        selector: 'h1',
        output_path: 'shots/a.png',
        return_base64: false,
        timeout_ms: 30_000,
      },
      options: { timeoutMs: 30_000 },
    });
  });

  it('defaults to the viewport and passes idea_folder and return_base64', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: written }]);
    await call(bridge, { idea_folder: '018. Feature-UIUX Reference', return_base64: true });
    expect(bridge.sent[0]?.params).toEqual({
      mode: 'viewport',
      idea_folder: '018. Feature-UIUX Reference',
      return_base64: true,
      timeout_ms: 30_000,
    });
  });

  it.each([
    [{ mode: 'element' }, 'selector'],
    [{ mode: 'viewport', selector: 'h1' }, 'selector'],
    [{ output_path: 'a.png', idea_folder: 'x' }, 'idea_folder'],
    [{ idea_folder: '../x' }, 'idea_folder'],
    [{ tab_id: 1, url_contains: 'x' }, 'url_contains'],
    [{ mode: 'page' }, 'mode'],
  ])('refuses %j before sending anything', async (args, field) => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: written }]);
    const { isError, body } = await call(bridge, args);
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.stringContaining(field) });
    expect(bridge.sent).toEqual([]);
  });

  it('passes the host’s refusal on (e.g. a path outside the workspace)', async () => {
    const bridge = new FakeBridge([
      {
        info: hostInfo(1, 'b'),
        answer: () => {
          throw new XipeError(
            'VALIDATION_ERROR',
            'Invalid input: output_path: resolves outside the workspace',
          );
        },
      },
    ]);
    const { body } = await call(bridge, { output_path: '../x.png' });
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', tool_name: 'capture_screenshot' });
  });

  it('returns the PNG once, as an MCP image block, when return_base64 is asked and the host sent it', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    const bridge = new FakeBridge([
      {
        info: hostInfo(1, 'b'),
        answer: (command, params, options) => ({
          ...(written(command, params, options) as Record<string, unknown>),
          base64: png,
        }),
      },
    ]);
    const result = await runTool(
      captureScreenshotTool,
      { return_base64: true },
      toolContext(bridge, { toolName: 'capture_screenshot' }),
    );
    expect(result.content).toEqual([
      { type: 'text', text: expect.any(String) },
      { type: 'image', data: png, mimeType: 'image/png' },
    ]);
    const text = (result.content[0] as { text: string }).text;
    expect(text).not.toContain(png);
    expect(JSON.parse(text)).toMatchObject({
      status: 'success',
      path: '/workspace/shots/a.png',
      image: expect.any(String),
    });
    expect(result.structuredContent).not.toHaveProperty('base64');
  });
});
