import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../mcp/src/tools/registry.js';
import { BrowserEnv } from '../helpers/browser-fixture.js';
import { CLI_BIN } from '../helpers/fake-extension.js';

/**
 * Every tool driven through a stock client we did not write: the official MCP Inspector CLI
 * 0.15.0 (the newest that runs on Node 20) over stdio, against the real server, host and
 * Chromium. The Inspector turns a `--tool-arg k=v` into an object or array only when the listed
 * schema's `type` is exactly "object" or "array", so this is what shows a listed schema is usable
 * by a form-driven client (save_uiux_reference with colors and elements failed here before).
 */
const INSPECTOR = '@modelcontextprotocol/inspector@0.15.0';
const IDEA = '001. Demo Idea';
const run = promisify(execFile);
/** Each Inspector run starts npx, the Inspector and our server: seconds each on a loaded machine. */
const PER_CALL_MS = 60_000;

describe('every tool through the MCP Inspector CLI 0.15.0 (stdio)', () => {
  let env: BrowserEnv;
  let script: string;
  const called = new Set<string>();

  beforeAll(async () => {
    env = await BrowserEnv.start();
    await env.openPage('/demo/');
    script = path.join(env.root, 'title.js');
    fs.writeFileSync(script, 'document.title');
  });
  afterAll(async () => {
    await env?.dispose();
  });

  /** One Inspector run: it starts the server, lists the tools, converts the arguments and calls. */
  async function call(tool: string, args: Record<string, string | number | boolean>) {
    called.add(tool);
    const toolArgs = Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${String(v)}`]);
    const { stdout } = await run(
      'npx',
      [
        '-y',
        INSPECTOR,
        '--cli',
        '-e',
        `XIPE_UIUX_HOME=${env.home}`,
        '-e',
        `HOME=${String(env.env.HOME)}`,
        process.execPath,
        CLI_BIN,
        'mcp',
        '--workspace',
        env.workspace,
        '--method',
        'tools/call',
        '--tool-name',
        tool,
        ...toolArgs,
      ],
      { env: env.env, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const result = JSON.parse(stdout) as {
      isError?: boolean;
      content: Array<{ type: string; text?: string }>;
    };
    const body = JSON.parse(result.content[0]?.text ?? '{}') as Record<string, unknown>;
    return { isError: result.isError === true, body };
  }

  it(
    'saves colors and elements given as the Inspector sends them',
    async () => {
      const colors = [{ id: 'color-001', hex: '#1a73e8', rgb: '26, 115, 232', hsl: '214, 82%, 51%' }];
      const elements = [
        {
          id: 'elem-001',
          selector: 'h1',
          tag: 'h1',
          bounding_box: { x: 0, y: 0, width: 10, height: 10 },
          comment: null,
        },
      ];
      const { isError, body } = await call('save_uiux_reference', {
        version: '1.0',
        source_url: env.url('/demo/'),
        timestamp: '2025-01-15T10:30:00Z',
        idea_folder: IDEA,
        colors: JSON.stringify(colors),
        elements: JSON.stringify(elements),
        design_tokens: JSON.stringify({ colors: { primary: '#1a73e8' } }),
      });
      expect(isError, JSON.stringify(body)).toBe(false);
      expect(body).toMatchObject({ status: 'success', session_number: 1 });
      const session = JSON.parse(
        fs.readFileSync(path.join(env.workspace, String(body.session_path)), 'utf8'),
      );
      expect(session).toMatchObject({ colors, elements: [{ id: 'elem-001', selector: 'h1' }] });
    },
    PER_CALL_MS,
  );

  it(
    'runs the browser tools with their example arguments; every success says status "success"',
    async () => {
      const outcomes = [
        await call('list_tabs', {}),
        await call('bridge_status', {}),
        await call('inject_script', { file_path: script, url_contains: '/demo/' }),
        await call('inject_toolbar', { url_contains: '/demo/' }),
        await call('wait_for_captures', { timeout_ms: 0 }),
        await call('capture_screenshot', { url_contains: '/demo/', idea_folder: IDEA }),
        await call('capture_area', { url_contains: '/demo/', idea_folder: IDEA, selector: 'h1' }),
      ];
      for (const { isError, body } of outcomes) {
        expect(isError, JSON.stringify(body)).toBe(false);
        expect(body.status).toBe('success');
      }
      const area = outcomes[6]?.body as { files: Record<string, string> };
      for (const file of ['summary', 'tokens', 'referenced_elements', 'screenshot'])
        expect(fs.existsSync(area.files[file] ?? ''), file).toBe(true);
    },
    7 * PER_CALL_MS,
  );

  it(
    'answers an invalid selector and a rect past the page with VALIDATION_ERROR naming the argument',
    async () => {
      const shot = await call('capture_screenshot', {
        url_contains: '/demo/',
        mode: 'element',
        selector: '###',
      });
      expect(shot.isError).toBe(true);
      expect(shot.body).toMatchObject({ error: 'VALIDATION_ERROR' });
      expect(shot.body.message).toMatch(
        /^Invalid arguments for capture_screenshot: selector: expected a valid CSS selector, got "###"/,
      );
      const area = await call('capture_area', {
        url_contains: '/demo/',
        idea_folder: IDEA,
        rect: JSON.stringify({ x: 0, y: 900_000, width: 100, height: 100 }),
      });
      expect(area.isError).toBe(true);
      expect(area.body).toMatchObject({ error: 'VALIDATION_ERROR' });
      expect(area.body.message).toMatch(
        /^Invalid arguments for capture_area: rect: expected a rect inside the page/,
      );
      const bad = await call('capture_area', { url_contains: '/demo/', idea_folder: IDEA, selector: '###' });
      expect(bad.body.message).toMatch(
        /^Invalid arguments for capture_area: selector: expected a valid CSS selector/,
      );
    },
    3 * PER_CALL_MS,
  );

  it('has driven every registered tool', () => {
    expect([...called].sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });
});
