import { describe, expect, it } from 'vitest';
import { type FakeAnswer, FakeBridge, hostInfo, toolContext } from '../../test-support/fake-bridge.js';
import { runTool } from './call/run-tool.js';
import { captureAreaTool } from './capture-area.js';

const saved: FakeAnswer = (command) => {
  if (command !== 'save_area') throw new Error(command);
  return {
    status: 'success',
    area_id: 'area-2',
    element_count: 42,
    resource_count: 1,
    resource_bytes: 1000,
    skipped_count: 0,
    skipped_examples: [],
    files: {
      referenced_elements: '/ws/r.json',
      structure_html: '/ws/area-2-structure.html',
      styles_css: '/ws/area-2-styles.css',
      screenshot: '/ws/area-2.png',
    },
    elapsed_ms: 321,
  };
};

async function call(bridge: FakeBridge, args: Record<string, unknown>) {
  const result = await runTool(captureAreaTool, args, toolContext(bridge, { toolName: 'capture_area' }));
  return { isError: result.isError === true, body: result.structuredContent as Record<string, unknown> };
}

describe('capture_area', () => {
  it('asks the host to capture and write the area, and returns its small answer as is', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: saved }]);
    const { isError, body } = await call(bridge, {
      idea_folder: '018. Feature-UIUX Reference',
      selector: '.pricing',
      instruction: 'Rebuild it',
      url_contains: 'example',
    });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ status: 'success', area_id: 'area-2', element_count: 42 });
    expect(bridge.sent[0]).toMatchObject({
      command: 'save_area',
      params: {
        url_contains: 'example',
        idea_folder: '018. Feature-UIUX Reference',
        selector: '.pricing',
        instruction: 'Rebuild it',
        timeout_ms: 60_000,
      },
      options: { timeoutMs: 60_000 },
    });
  });

  it('passes a page rectangle and an area id', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: saved }]);
    await call(bridge, {
      idea_folder: 'x',
      rect: { x: 0, y: 900, width: 300, height: 200 },
      area_id: 'area-3',
    });
    expect(bridge.sent[0]?.params).toEqual({
      idea_folder: 'x',
      rect: { x: 0, y: 900, width: 300, height: 200 },
      area_id: 'area-3',
      timeout_ms: 60_000,
    });
  });

  it.each([
    [{ idea_folder: 'x' }, 'selector', 'exactly one of selector and rect, got neither'],
    [
      { idea_folder: 'x', selector: 'a', rect: { x: 0, y: 0, width: 1, height: 1 } },
      'rect',
      'exactly one of selector and rect, got both',
    ],
    [{ idea_folder: 'x', rect: { x: 0, y: 0, width: 0, height: 1 } }, 'rect.width', ''],
    [{ idea_folder: 'x', selector: 'a', area_id: 'area-x' }, 'area_id', ''],
    [{ idea_folder: '../x', selector: 'a' }, 'idea_folder', ''],
    [{ idea_folder: 'x', selector: 'a', tab_id: 1, page_index: 0 }, 'page_index', ''],
  ])('refuses %j naming %s before anything is sent', async (args, field, words) => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: saved }]);
    const { isError, body } = await call(bridge, args);
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', tool_name: 'capture_area' });
    expect(String(body.message)).toContain(field);
    expect(String(body.message)).toContain(words);
    expect(bridge.sent).toEqual([]);
  });
});
