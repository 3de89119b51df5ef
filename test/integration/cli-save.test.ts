import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SaveResult } from '#shared/reference-data.js';
import { CLI_BIN } from '../helpers/fake-extension.js';
import { expectedSession, originalShapes } from '../helpers/original-shapes.js';
import {
  b64,
  IDEA,
  makePng,
  makeWorkspace,
  readJson,
  referenceData,
  sessionFiles,
  type TempWorkspace,
} from '../helpers/store-fixtures.js';

// `x-ipe-uiux save` as scripts run it: a real process, no browser and no host, checking exit
// codes, stdout/stderr and what lands on disk, in both output formats.

let ws: TempWorkspace;
let home: string;
beforeEach(() => {
  ws = makeWorkspace();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-cli-save-'));
});
afterEach(() => {
  ws.cleanup();
  fs.rmSync(home, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function save(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Run {
  const result = spawnSync(process.execPath, [CLI_BIN, 'save', ...args], {
    cwd: ws.workspace,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, XIPE_UIUX_HOME: home, ...options.env },
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json(run: Run): Record<string, unknown> {
  const lines = run.stdout.trim().split('\n');
  expect(lines, 'stdout is exactly one JSON line').toHaveLength(1);
  return JSON.parse(lines[0] ?? 'null') as Record<string, unknown>;
}

function writeData(data: unknown): string {
  const file = path.join(ws.root, `data-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(data));
  return file;
}

describe('x-ipe-uiux save', () => {
  it('saves from --data-file, --data and stdin, printing the tool result (json) or a summary (text)', async () => {
    const png = makePng(4, 3, 1);
    const data = referenceData({
      elements: [
        { id: 'elem-001', selector: 'main', screenshots: { full_page: b64(png), element_crop: null } },
      ],
    });
    const fromFile = save(['--data-file', writeData(data)]);
    expect(fromFile.status).toBe(0);
    expect(fromFile.stderr).toBe('');
    const result = SaveResult.parse(json(fromFile));
    expect(result).toMatchObject({
      session_file: 'ref-session-001.json',
      session_number: 1,
      workspace: ws.workspace,
    });
    expect(fs.readFileSync(path.join(ws.workspace, result.screenshots[0] ?? '')).equals(png)).toBe(true);

    const inline = save(['--data', JSON.stringify(referenceData()), '--workspace', ws.workspace]);
    expect(inline.status).toBe(0);
    expect(json(inline)).toMatchObject({ status: 'success', session_number: 2 });

    const piped = save(['--format', 'text'], { input: JSON.stringify(referenceData()) });
    expect(piped.status).toBe(0);
    expect(piped.stdout).toContain(`Saved ref-session-003.json (session 3) into ${IDEA}`);
    expect(piped.stdout).toContain(
      `merged view: x-ipe-docs/ideas/${IDEA}/uiux-references/reference-data.json`,
    );
    expect(sessionFiles(ws.refsDir())).toEqual([
      'ref-session-001.json',
      'ref-session-002.json',
      'ref-session-003.json',
    ]);
  });

  it("saves the original producers' shapes unchanged", () => {
    for (const { name, data } of originalShapes()) {
      const run = save(['--data-file', writeData(data)]);
      expect(run.status, `${name}: ${run.stdout}`).toBe(0);
      const result = SaveResult.parse(json(run));
      expect(readJson(path.join(ws.workspace, result.session_path)), name).toEqual(
        expectedSession(data, result.screenshots, result.session_number),
      );
    }
  });

  it('exits 1 on a refused save, with the same error object as the tool (json) or the message (text)', () => {
    const bad = referenceData({
      version: '4.0',
      elements: [{ id: 'elem-001', selector: 'a', bounding_box: { x: 0, y: 0, width: '12px', height: 1 } }],
    });
    const refused = save(['--data', JSON.stringify(bad)]);
    expect(refused.status).toBe(1);
    const body = json(refused);
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', tool_name: 'save_uiux_reference' });
    expect(body.message).toContain('version: expected a supported version: "1.0", "2.0", "3.0", got "4.0"');
    expect(body.message).toContain('elements.0.bounding_box.width: expected a number ≥ 0, got "12px"');
    expect((body.details as { issues: unknown[] }).issues).toHaveLength(2);

    const asText = save(['--format', 'text', '--data', JSON.stringify(bad)]);
    expect(asText.status).toBe(1);
    expect(asText.stdout).toBe('');
    expect(asText.stderr).toMatch(/^VALIDATION_ERROR: Invalid reference data: version: expected/);
    expect(asText.stderr).toContain('  - elements.0.bounding_box.width: expected a number ≥ 0, got "12px"');

    const missing = save(['--data', JSON.stringify(referenceData({ idea_folder: 'nope' }))]);
    expect(missing.status).toBe(1);
    expect(json(missing)).toMatchObject({
      error: 'IDEA_NOT_FOUND',
      message: expect.stringMatching(
        /^Idea folder not found: nope\. Looked in .+ existing ideas: .+ Pass one of the existing names/,
      ),
    });
    const missingText = save([
      '--format',
      'text',
      '--data',
      JSON.stringify(referenceData({ idea_folder: 'nope' })),
    ]);
    // The text output is the message alone: where it looked, what exists and what to do are in it.
    expect(missingText).toMatchObject({
      status: 1,
      stdout: '',
      stderr: expect.stringMatching(
        /^IDEA_NOT_FOUND: Idea folder not found: nope\. Looked in \S.*: existing ideas: .+\. Pass one of the existing names exactly, or create the folder first \(`x-ipe-uiux init --idea NAME`; the store never creates it\)\.\n$/,
      ),
    });

    const big = save(['--data-file', writeData(referenceData())], {
      env: { XIPE_UIUX_MAX_PAYLOAD_BYTES: '100' },
    });
    expect(big.status).toBe(1);
    expect(json(big)).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', details: { max_bytes: 100 } });
    expect(fs.existsSync(ws.refsDir())).toBe(false);
  });

  it.each([
    [
      'no input (empty stdin)',
      [],
      'VALIDATION_ERROR',
      /input: expected reference data JSON .* got an empty stdin/,
    ],
    [
      'an unreadable file',
      ['--data-file', 'missing.json'],
      'FILE_NOT_FOUND',
      /Cannot read --data-file .*missing\.json/,
    ],
    [
      'invalid JSON',
      ['--data', '{"version":'],
      'VALIDATION_ERROR',
      /data: expected reference data as JSON, got "\{\\"version\\":", which does not parse/,
    ],
    [
      'both --data and --data-file',
      ['--data', '{}', '--data-file', 'x.json'],
      'VALIDATION_ERROR',
      /got both --data-file and --data/,
    ],
  ])('exits 2 on bad usage: %s', (_name, args, code, message) => {
    for (const format of ['json', 'text']) {
      const run = save([...args, '--format', format]);
      expect(run.status).toBe(2);
      if (format === 'json') {
        const body = json(run);
        expect(body).toMatchObject({ error: code, tool_name: 'save_uiux_reference' });
        expect(String(body.message)).toMatch(message);
      } else {
        expect(run.stdout).toBe('');
        expect(run.stderr.startsWith(`${code}: `)).toBe(true);
        expect(run.stderr).toMatch(message);
      }
    }
    expect(fs.existsSync(ws.refsDir())).toBe(false);
  });

  it('exits 2 on options it does not know, and prints its usage on --help', () => {
    expect(save(['--colour', 'x'])).toMatchObject({ status: 2, stdout: '' });
    expect(save(['--colour', 'x']).stderr).toContain('unknown option --colour');
    expect(save(['--format', 'xml', '--data', '{}'])).toMatchObject({ status: 2 });
    const help = save(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: x-ipe-uiux save [--data-file FILE] [--data JSON]');
  });
});
