import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invalidInput } from '#shared/errors.js';
import { makeIssue } from '#shared/validation-issues.js';
import { FakeBridge, hostInfo, silentLogger } from '../../../test-support/fake-bridge.js';
import { TOOLS } from '../registry.js';
import { runTool } from './run-tool.js';

/**
 * One grammar for every refusal an agent can get (DESIGN §4–§5):
 *   Invalid arguments for <tool>: <field>: expected <X>, got <Y>[; …]. <What to do next.>
 * whichever process refused (the server's schema, a handler, the host relaying the extension's
 * check). Each row is a real mistake an agent makes.
 */
const GRAMMAR =
  /^Invalid arguments for ([a-z_]+): ([\w.()]+): expected (.+?), got (.+?)(; [\w.()]+: expected .+?, got .+?)*\. [A-Z`].*[.)]$/;
/** What read as a broken template before: the expectation must be a noun phrase, not a verb. */
const BROKEN = /expected (must|is|give|should|needs?) /;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-refusals-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const tool = (name: string) => {
  const found = TOOLS.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};

const oneBrowser = () => new FakeBridge([{ info: hostInfo(1, 'b1'), answer: () => ({}) }]);
const twoBrowsers = () =>
  new FakeBridge([
    { info: hostInfo(1, 'b1'), answer: () => ({}) },
    { info: hostInfo(2, 'b2'), answer: () => ({}) },
  ]);
/** A host that relays the extension's own refusal, named its own way. */
const refusingHost = () =>
  new FakeBridge([
    {
      info: hostInfo(1, 'b1'),
      answer: () => {
        throw invalidInput(
          [makeIssue('selector', 'a valid CSS selector', '###', 'is not one')],
          'capture_area arguments',
          {
            hint: 'Fix the selector, or give a page rect.',
          },
        );
      },
    },
  ]);

const save = {
  version: '1.0',
  source_url: 'https://example.com/',
  timestamp: '2025-01-15T10:30:00Z',
  idea_folder: 'idea',
};

const ROWS: Array<[string, Record<string, unknown>, () => FakeBridge, string]> = [
  ['inject_script', { file_path: 42 }, oneBrowser, 'file_path'],
  ['inject_script', { file_path: 'relative.js' }, oneBrowser, 'file_path'],
  ['inject_script', { file_path: dir }, oneBrowser, 'file_path'],
  ['inject_script', { file_path: '/x.js', tab_id: 1, url_contains: 'a' }, oneBrowser, 'url_contains'],
  ['list_tabs', { tab: 1 }, oneBrowser, '(root)'],
  ['bridge_status', { verbose: true }, oneBrowser, '(root)'],
  ['save_uiux_reference', { ...save }, oneBrowser, '(root)'],
  ['save_uiux_reference', { ...save, colors: '[{"id":' }, oneBrowser, 'colors'],
  ['save_uiux_reference', { ...save, idea_folder: '../up', colors: [] }, oneBrowser, 'idea_folder'],
  ['save_uiux_reference', { ...save, colors: [{ id: 'c1', hex: 'blue' }] }, oneBrowser, 'colors.0.id'],
  ['inject_toolbar', {}, twoBrowsers, 'browser'],
  ['inject_toolbar', { page_index: -1 }, oneBrowser, 'page_index'],
  ['wait_for_captures', { timeout_ms: -5 }, oneBrowser, 'timeout_ms'],
  ['capture_screenshot', { mode: 'element' }, oneBrowser, 'selector'],
  ['capture_screenshot', { selector: 'h1' }, oneBrowser, 'selector'],
  ['capture_screenshot', { output_path: 'a.png', idea_folder: 'idea' }, oneBrowser, 'idea_folder'],
  ['capture_area', { idea_folder: 'idea' }, oneBrowser, 'selector'],
  [
    'capture_area',
    { idea_folder: 'idea', selector: 'a', rect: { x: 0, y: 0, width: 1, height: 1 } },
    oneBrowser,
    'rect',
  ],
  ['capture_area', { idea_folder: 'idea', selector: '###' }, refusingHost, 'selector'],
];

describe('every refusal reads `<field>: expected X, got Y` plus what to do, with one prefix', () => {
  it.each(ROWS)('%s %j', async (name, args, bridge, field) => {
    const result = await runTool(tool(name), args, {
      bridge: bridge(),
      workspace: dir,
      logger: silentLogger(),
      signal: new AbortController().signal,
      toolName: name,
    });
    expect(result.isError).toBe(true);
    const body = result.structuredContent as {
      error: string;
      message: string;
      details: { issues?: unknown[] };
    };
    expect(body.error).toBe('VALIDATION_ERROR');
    const match = GRAMMAR.exec(body.message);
    expect(match, body.message).not.toBeNull();
    expect(match?.[1]).toBe(name);
    expect(match?.[2]).toBe(field);
    expect(body.message).not.toMatch(BROKEN);
    expect(Array.isArray(body.details.issues)).toBe(true);
  });
});
