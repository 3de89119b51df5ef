import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveReference } from '#shared/node/idea-store/index.js';
import {
  IDEA,
  makePng,
  makeWorkspace,
  readJson,
  referenceData,
  sessionFiles,
  type TempWorkspace,
} from '../helpers/store-fixtures.js';

// Real processes hammering one idea through the built store (dist/node): the cross-process lock,
// numbering and atomic writes are what is under test here.

const repo = path.resolve(import.meta.dirname, '../..');
const loop = path.join(repo, 'test/helpers/store-save-loop.mjs');
const built = path.join(repo, 'dist/node/shared/src/node/idea-store/index.js');

beforeAll(() => {
  if (!fs.existsSync(built)) {
    try {
      execFileSync('npx', ['tsc', '-p', 'tsconfig.node.json'], { cwd: repo, stdio: 'ignore' });
    } catch {
      // other packages may not compile yet; the store's files are emitted anyway
    }
  }
  expect(fs.existsSync(built), 'run `npm run build:node` first').toBe(true);
});

const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

function startLoop(ws: TempWorkspace, count: number | 'forever', png?: string): ChildProcess {
  const args = [loop, ws.workspace, IDEA, String(count)];
  if (png) args.push(png);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

/** Every session, screenshot and the merged view are complete files; numbering has no gap. */
function expectConsistent(ws: TempWorkspace): number[] {
  const refs = ws.refsDir();
  const sessions = sessionFiles(refs).filter((n) => /^ref-session-\d{3,}\.json$/.test(n));
  const numbers = sessions.map((n) => Number.parseInt(n.slice('ref-session-'.length), 10));
  expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  for (const name of sessions) {
    const session = readJson(path.join(refs, 'sessions', name)) as { session_number: number };
    expect(session.session_number).toBe(Number.parseInt(name.slice('ref-session-'.length), 10));
  }
  for (const name of fs.readdirSync(path.join(refs, 'sessions'))) {
    // Anything else in sessions/ is a temp file nobody can take for a session.
    if (!sessions.includes(name)) expect(name.startsWith('.tmp-')).toBe(true);
  }
  for (const name of fs.readdirSync(path.join(refs, 'screenshots'))) {
    if (name.startsWith('.tmp-')) continue;
    const bytes = fs.readFileSync(path.join(refs, 'screenshots', name));
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.subarray(-8, -4).toString('latin1')).toBe('IEND'); // complete, not truncated
  }
  if (fs.existsSync(path.join(refs, 'reference-data.json'))) readJson(path.join(refs, 'reference-data.json'));
  return numbers;
}

describe('idea store across processes', () => {
  let ws: TempWorkspace;
  afterAll(() => ws?.cleanup());

  it('4 processes × 15 saves into one idea give sessions 001–060, gap-free, all valid JSON', async () => {
    ws = makeWorkspace();
    const runs = Array.from({ length: 4 }, () => exited(startLoop(ws, 15)));
    for (const result of await Promise.all(runs)) expect(result).toEqual({ code: 0, stderr: '' });
    expect(expectConsistent(ws)).toHaveLength(60);
    const merged = readJson(path.join(ws.refsDir(), 'reference-data.json')) as {
      sessions: unknown[];
      source_urls: unknown[];
    };
    expect(merged.sessions).toHaveLength(60);
    expect(merged.source_urls).toHaveLength(60);
    expect(fs.existsSync(path.join(ws.refsDir(), '.lock'))).toBe(false);
  });

  it('SIGKILL at random moments leaves only complete files, and the next save continues the numbering', async () => {
    ws.cleanup();
    ws = makeWorkspace();
    const png = path.join(ws.root, 'shot.png');
    fs.writeFileSync(png, makePng(300, 300, 5)); // ~270 KB: saves take long enough to be hit mid-write
    for (let round = 0; round < 8; round++) {
      const pair = [startLoop(ws, 'forever', png), startLoop(ws, 'forever', png)];
      const done = pair.map(exited);
      // Wait until at least one save landed, then kill both at a random moment.
      await new Promise<void>((resolve) => pair[0]?.stdout?.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, Math.random() * 60));
      for (const child of pair) child.kill('SIGKILL');
      await Promise.all(done);
      expectConsistent(ws);
    }
    const before = expectConsistent(ws);
    expect(before.length).toBeGreaterThan(0);
    const next = await saveReference({ workspace: ws.workspace, data: referenceData(), lockTimeoutMs: 5000 });
    expect(next.session_number).toBe(before.length + 1);
    expectConsistent(ws);
    // The dead writers' lock and temp files are gone after a save that ran after them.
    const leftovers = ['', 'sessions', 'screenshots'].flatMap((d) =>
      fs
        .readdirSync(path.join(ws.refsDir(), d))
        .filter((n) => n.startsWith('.tmp-') || n.startsWith('.lock')),
    );
    expect(leftovers).toEqual([]);
    const merged = readJson(path.join(ws.refsDir(), 'reference-data.json')) as { sessions: unknown[] };
    expect(merged.sessions).toHaveLength(before.length + 1);
  });
});
