import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeWorkspace, referenceData, type TempWorkspace } from '#test/helpers/store-fixtures.js';
import { type SaveIo, saveCommand } from './save.js';

// The command's own logic with an injected terminal; exit codes and output formats are also
// checked on the real process in test/integration/cli-save.test.ts.

let ws: TempWorkspace;
let home: string;
beforeEach(() => {
  ws = makeWorkspace();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-save-unit-'));
});
afterEach(() => {
  ws.cleanup();
  fs.rmSync(home, { recursive: true, force: true });
});

function io(stdin: string | null): SaveIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: vi.fn(async () => stdin),
    cwd: ws.workspace,
    home,
  };
}

describe('saveCommand', () => {
  it('reads stdin only up to the cap and refuses more with PAYLOAD_TOO_LARGE (exit 1)', async () => {
    fs.writeFileSync(path.join(home, 'config.json'), JSON.stringify({ max_payload_bytes: 300 }));
    const terminal = io(JSON.stringify(referenceData()));
    expect(await saveCommand({}, terminal)).toBe(1);
    expect(terminal.readStdin).toHaveBeenCalledWith(301);
    expect(JSON.parse(terminal.out.join(''))).toMatchObject({
      error: 'PAYLOAD_TOO_LARGE',
      details: { max_bytes: 300 },
    });
    expect(fs.existsSync(ws.refsDir())).toBe(false);
  });

  it('treats a terminal on stdin as no input (exit 2), and --data wins over stdin', async () => {
    const terminal = io(null);
    expect(await saveCommand({ format: 'text' }, terminal)).toBe(2);
    expect(terminal.err.join('')).toContain('got nothing (stdin is a terminal)');
    const piped = io('not json');
    expect(await saveCommand({ data: JSON.stringify(referenceData()) }, piped)).toBe(0);
    expect(piped.readStdin).not.toHaveBeenCalled();
  });
});
