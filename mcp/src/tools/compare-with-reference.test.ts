import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FakeAnswer, FakeBridge, hostInfo, toolContext } from '../../test-support/fake-bridge.js';
import { runTool } from './call/run-tool.js';
import { compareWithReferenceTool } from './compare-with-reference.js';

const compared: FakeAnswer = (command) => {
  if (command !== 'compare_with_reference') throw new Error(command);
  return {
    status: 'success',
    reference: 'area-1',
    scores: { pixel: 0.93, ssim: 0.8, block_match: 0.97, text: 1, position: 0.99, color: 0.95 },
    differences: ['`.hero h1`: font-size 40px, reference 46px'],
    difference_count: 1,
    files: { candidate: '/ws/c.png', diff: '/ws/d.png', report_json: '/ws/r.json', report_md: '/ws/r.md' },
    elapsed_ms: 640,
  };
};

async function call(bridge: FakeBridge, args: Record<string, unknown>) {
  const result = await runTool(
    compareWithReferenceTool,
    args,
    toolContext(bridge, { toolName: 'compare_with_reference' }),
  );
  return { isError: result.isError === true, body: result.structuredContent as Record<string, unknown> };
}

describe('compare_with_reference', () => {
  it('asks the host to compare and returns its small answer as is', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: compared }]);
    const { isError, body } = await call(bridge, {
      idea_folder: '018. Pricing',
      area_id: 'area-1',
      file_path: 'mockups/pricing.html',
      selector: '#pricing',
    });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ status: 'success', reference: 'area-1', difference_count: 1 });
    expect(bridge.sent[0]).toMatchObject({
      command: 'compare_with_reference',
      params: {
        idea_folder: '018. Pricing',
        area_id: 'area-1',
        file_path: 'mockups/pricing.html',
        selector: '#pricing',
        timeout_ms: 30_000,
      },
      options: { timeoutMs: 30_000 },
    });
  });

  it.each([
    [{ idea_folder: 'x', file_path: 'a.html' }, 'area_id', 'give area_id or screenshot'],
    [
      { idea_folder: 'x', area_id: 'area-1', screenshot: 's.png', url: 'http://localhost/' },
      'screenshot',
      'not both',
    ],
    [{ idea_folder: 'x', area_id: 'area-1' }, 'file_path', 'give file_path or url'],
    [{ idea_folder: 'x', area_id: 'area-1', url: 'https://example.com/' }, 'url', 'localhost or 127.0.0.1'],
    [{ idea_folder: 'x', area_id: 'area-1', url: 'http://localhost.example.com/' }, 'url', 'exactly'],
    [{ idea_folder: 'x', area_id: 'area-1', url: 'http://127.0.0.1@example.com/' }, 'url', ''],
    [{ idea_folder: 'x', area_id: 'area-1', url: 'file:///etc/passwd' }, 'url', 'http'],
    [{ idea_folder: 'x', area_id: 'area-x', file_path: 'a.html' }, 'area_id', ''],
  ])('refuses %j naming %s before anything is sent', async (args, field, words) => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: compared }]);
    const { isError, body } = await call(bridge, args);
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', tool_name: 'compare_with_reference' });
    expect(String(body.message)).toContain(field);
    expect(String(body.message)).toContain(words);
    expect(bridge.sent).toEqual([]);
  });

  it('accepts a loopback dev server URL', async () => {
    const bridge = new FakeBridge([{ info: hostInfo(1, 'b'), answer: compared }]);
    for (const url of ['http://localhost:5173/', 'http://127.0.0.1:8080/pricing', 'https://localhost/x']) {
      const { isError } = await call(bridge, { idea_folder: 'x', area_id: 'area-1', url });
      expect(isError, url).toBe(false);
    }
  });

  it('gives every input property a single string JSON Schema type (form-driven clients)', () => {
    const schema = z.toJSONSchema(compareWithReferenceTool.inputSchema, {
      io: 'input',
      target: 'draft-7',
    }) as {
      properties: Record<string, { type?: unknown }>;
    };
    const types = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, v.type]));
    expect(Object.keys(types).sort()).toEqual(
      [
        'area_id',
        'browser',
        'dpr',
        'file_path',
        'idea_folder',
        'screenshot',
        'selector',
        'timeout_ms',
        'url',
        'viewport_width',
      ].sort(),
    );
    for (const [name, type] of Object.entries(types)) expect(typeof type, name).toBe('string');
  });
});
