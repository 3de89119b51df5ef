import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { XipeError } from '#shared/errors.js';
import { LinkLost } from '#shared/node/bridge/link-lost.js';
import { createLogger } from '#shared/node/logger.js';
import { SaveResult } from '#shared/reference-data.js';
import { b64, makePng, makeWorkspace, referenceData, sessionFiles } from '#test/helpers/store-fixtures.js';
import type { BridgeClient } from '../bridge-client/bridge.js';
import { runTool } from './call/run-tool.js';
import type { ToolContext } from './define-tool.js';
import { TOOL_COMMANDS } from './registry.js';
import { saveUiuxReferenceTool } from './save-uiux-reference.js';

const SUCCESS = {
  status: 'success',
  session_file: 'ref-session-003.json',
  session_number: 3,
  session_path: 'x-ipe-docs/ideas/idea/uiux-references/sessions/ref-session-003.json',
  screenshots: [],
  reference_data_path: 'x-ipe-docs/ideas/idea/uiux-references/reference-data.json',
  idea_folder: 'idea',
  workspace: '/ws',
};

type FakeRequest = (command: string, params: unknown, options?: { browser?: string }) => Promise<unknown>;

function fakeBridge(request: FakeRequest): BridgeClient {
  const unused = () => Promise.reject(new Error('not used'));
  return {
    hosts: unused,
    request: request as unknown as BridgeClient['request'],
    requestEach: unused,
    status: unused,
    waitForCaptures: unused,
    onEvent: () => () => undefined,
    close: async () => undefined,
  };
}

let home: string;
const savedEnv = { ...process.env };
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-mcp-save-'));
  process.env.XIPE_UIUX_HOME = home;
  delete process.env.XIPE_UIUX_MAX_PAYLOAD_BYTES;
});
afterEach(() => {
  process.env = { ...savedEnv };
  fs.rmSync(home, { recursive: true, force: true });
});

function context(bridge: BridgeClient, workspace = '/ws'): ToolContext {
  return {
    bridge,
    workspace,
    logger: createLogger({ component: 'test', stderr: null }),
    signal: new AbortController().signal,
    toolName: saveUiuxReferenceTool.name,
  };
}

async function call(args: unknown, bridge: BridgeClient, workspace?: string) {
  const result = await runTool(saveUiuxReferenceTool, args, context(bridge, workspace));
  const first = result.content[0];
  return { isError: result.isError === true, body: JSON.parse(first?.type === 'text' ? first.text : 'null') };
}

describe('save_uiux_reference', () => {
  it('relays the top-level fields as data with the server workspace and returns the host result', async () => {
    const request = vi.fn(async () => SUCCESS);
    const { isError, body } = await call(referenceData(), fakeBridge(request));
    expect(isError).toBe(false);
    expect(body).toEqual(SUCCESS);
    expect(request).toHaveBeenCalledTimes(1);
    const [command, params] = request.mock.calls[0] as unknown as [
      string,
      { workspace: string; data: unknown },
    ];
    expect(command).toBe(TOOL_COMMANDS.save_uiux_reference);
    expect(params.workspace).toBe('/ws');
    expect(params.data).toEqual(referenceData());
  });

  it.each([
    ['version', { version: '4.0' }],
    ['timestamp', { timestamp: 'now' }],
    ['idea_folder', { idea_folder: '../x' }],
    ['colors, elements, design_tokens', { colors: [], elements: [], design_tokens: {} }],
    [
      'elements.0.screenshots.full_page',
      {
        elements: [
          { id: 'elem-001', selector: 'a', screenshots: { full_page: 'base64:R0lGODlhAQABAAAAACw=' } },
        ],
      },
    ],
  ])('refuses invalid data locally (%s), sending nothing', async (field, overrides) => {
    const request = vi.fn(async () => SUCCESS);
    const { isError, body } = await call(referenceData(overrides), fakeBridge(request));
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', tool_name: 'save_uiux_reference' });
    expect(body.message).toContain(field);
    expect(request).not.toHaveBeenCalled();
  });

  it('refuses a payload over the configured cap locally with PAYLOAD_TOO_LARGE', async () => {
    fs.writeFileSync(path.join(home, 'config.json'), JSON.stringify({ max_payload_bytes: 50_000 }));
    const request = vi.fn(async () => SUCCESS);
    const big = referenceData({
      elements: [{ id: 'elem-001', selector: 'a', screenshots: { full_page: b64(makePng(120, 120)) } }],
    });
    const { isError, body } = await call(big, fakeBridge(request));
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', details: { max_bytes: 50_000 } });
    expect(request).not.toHaveBeenCalled();
    // The same data under the cap is sent.
    fs.writeFileSync(path.join(home, 'config.json'), JSON.stringify({ max_payload_bytes: 500_000 }));
    expect((await call(big, fakeBridge(request))).isError).toBe(false);
  });

  it('passes host errors through in the contract shape (no extra retry of its own)', async () => {
    const request = vi.fn(async () => {
      throw new XipeError('IDEA_NOT_FOUND', 'Idea folder not found: idea', { idea_folder: 'idea' });
    });
    const { isError, body } = await call(referenceData(), fakeBridge(request));
    expect(isError).toBe(true);
    expect(body).toMatchObject({ error: 'IDEA_NOT_FOUND', tool_name: 'save_uiux_reference' });
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('saves through the local store when no host is reachable (browser closed)', async () => {
    const ws = makeWorkspace();
    try {
      const request = vi.fn(async () => {
        throw new XipeError('BACKEND_UNREACHABLE', 'No X-IPE native host is reachable: looked in /run.', {});
      });
      const png = makePng(3, 2, 5);
      const data = referenceData({
        elements: [
          { id: 'elem-001', selector: 'a', screenshots: { full_page: b64(png), element_crop: null } },
        ],
      });
      const { isError, body } = await call(data, fakeBridge(request), ws.workspace);
      expect(isError).toBe(false);
      expect(SaveResult.parse(body)).toMatchObject({ session_number: 1, workspace: ws.workspace });
      expect(fs.readFileSync(path.join(ws.workspace, body.screenshots[0])).equals(png)).toBe(true);
      expect(sessionFiles(ws.refsDir())).toEqual(['ref-session-001.json']);
      // Local failures keep the contract's codes and messages.
      const missing = await call(referenceData({ idea_folder: 'nope' }), fakeBridge(request), ws.workspace);
      expect(missing.body).toMatchObject({ error: 'IDEA_NOT_FOUND' });
      expect(missing.body.message).toMatch(/^Idea folder not found: nope\. Looked in \S+: existing ideas: /);
    } finally {
      ws.cleanup();
    }
  });

  it('never saves locally when the request may have reached a host (no duplicate session)', async () => {
    const ws = makeWorkspace();
    try {
      const request = vi.fn(async () => {
        throw new LinkLost('The link to host pid 7 closed while a request was in flight.', {}, true);
      });
      const { isError, body } = await call(referenceData(), fakeBridge(request), ws.workspace);
      expect(isError).toBe(true);
      expect(body).toMatchObject({ error: 'BACKEND_UNREACHABLE' });
      expect(fs.existsSync(ws.refsDir())).toBe(false);
    } finally {
      ws.cleanup();
    }
  });

  it('uses the first browser when several are connected (any host can save)', async () => {
    const request = vi.fn(async (_command: unknown, _params: unknown, options?: { browser?: string }) => {
      if (options?.browser === undefined) {
        throw new XipeError('VALIDATION_ERROR', 'browser: 2 browsers are connected', {
          field: 'browser',
          connected_browsers: ['chromium-a', 'chromium-b'],
        });
      }
      return SUCCESS;
    });
    const { isError } = await call(referenceData(), fakeBridge(request));
    expect(isError).toBe(false);
    expect(request.mock.calls[1]?.[2]).toMatchObject({ browser: 'chromium-a' });
  });
});
