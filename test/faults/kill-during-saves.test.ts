/**
 * The host SIGKILLed at random points during 200 saves (Faults): saves go through the
 * real host process over the bridge (`save_reference`), a few in flight at a time, and the host is
 * killed after a seeded-random number of requests and a random short delay, then restarted on the
 * same home and workspace. Afterwards: every file on disk parses (sessions, merged view, PNGs are
 * complete), session numbers are 1..N with no gap, every save that was answered with success is on
 * disk with exactly its own content, no session exists that nobody asked for, and after one more
 * save no temp or lock file is left.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { MergedReferenceData } from '#shared/reference-data.js';
import type { BridgeTestClient, FakeExtension } from '../helpers/fake-extension.js';
import { tryMountTmpfs } from '../helpers/fault-disk.js';
import { crashReports, HostPool } from '../helpers/fault-host.js';
import { b64, IDEA, makePng, makeWorkspace, referenceData } from '../helpers/store-fixtures.js';

const TOTAL_SAVES = Number(process.env.XIPE_KILL_SAVES ?? 200);
const IN_FLIGHT = 3;

/** Small seeded PRNG (mulberry32): the kill plan is reproducible, the timing is the OS's. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// SIGKILL tests process crashes, not power loss: a tmpfs (when root may mount one) spares the
// fsyncs, which would otherwise dominate the run time; else a normal temp dir.
const disk = tryMountTmpfs({ sizeBytes: 256 * 1024 * 1024 });
const ws = disk === null ? makeWorkspace() : workspaceOn(disk.dir);
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-h-'));
const pool = new HostPool();
afterAll(async () => {
  await pool.disposeAll();
  ws.cleanup();
  disk?.unmount();
  fs.rmSync(home, { recursive: true, force: true });
});

function workspaceOn(root: string): { workspace: string; refsDir(): string; cleanup(): void } {
  const workspace = path.join(root, 'ws');
  fs.mkdirSync(path.join(workspace, 'x-ipe-docs', 'ideas', IDEA), { recursive: true });
  return {
    workspace,
    refsDir: () => path.join(workspace, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references'),
    cleanup: () => fs.rmSync(workspace, { recursive: true, force: true }),
  };
}

const PNG_END = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

function saveParams(index: number): { source_url: string; data: Record<string, unknown> } {
  const source_url = `https://example.com/save/${index}`;
  const withShots = index % 2 === 0;
  const data = referenceData({
    source_url,
    session_id: `save-${index}`,
    elements: [
      {
        id: 'elem-001',
        selector: `#item-${index}`,
        screenshots: withShots
          ? { full_page: b64(makePng(40, 30, index)), element_crop: b64(makePng(12, 9, index + 1)) }
          : { full_page: null, element_crop: null },
      },
    ],
  });
  return { source_url, data };
}

it(`keeps every answered save and a gap-free, parseable idea through SIGKILLs during ${TOTAL_SAVES} saves`, async () => {
  const random = prng(0xdead);
  /** source_url → session number, for every save answered with success. */
  const acknowledged = new Map<string, number>();
  const sent = new Set<string>();
  const failures: string[] = [];
  let next = 0;
  let kills = 0;

  while (next < TOTAL_SAVES) {
    const ext: FakeExtension = await pool.start({ home });
    const client: BridgeTestClient = await pool.client(ext, {
      clientInfo: { name: 'kill-test', pid: process.pid, workspace: ws.workspace },
    });
    // Kill after this many requests of this incarnation, plus a short random delay.
    const killAfter = 1 + Math.floor(random() * 24);
    const killDelayMs = Math.floor(random() * 25);
    let killed = false;
    let sentHere = 0;
    const inFlight = new Set<Promise<void>>();
    while (next < TOTAL_SAVES && !killed) {
      const index = next++;
      const { source_url, data } = saveParams(index);
      sent.add(source_url);
      sentHere += 1;
      const call = client
        .request('save_reference', { data }, { id: `s-${index}`, waitMs: 30_000 })
        .then((response) => {
          if (response.ok) {
            acknowledged.set(source_url, (response.result as { session_number: number }).session_number);
          } else {
            failures.push(`save ${index}: ${response.error.code} ${response.error.message}`);
          }
        })
        .catch(() => undefined) // the link closed: outcome unknown, checked on disk below
        .finally(() => inFlight.delete(call));
      inFlight.add(call);
      if (sentHere === killAfter) {
        await sleep(killDelayMs);
        ext.child.kill('SIGKILL');
        killed = true;
        kills += 1;
      } else if (inFlight.size >= IN_FLIGHT) {
        await Promise.race(inFlight);
      }
    }
    await Promise.all(inFlight);
    if (killed) {
      const exit = await ext.waitForExit(10_000);
      expect(exit.signal).toBe('SIGKILL');
    }
    // Whatever happened, stdout never carried a non-frame (a frame cut by SIGKILL is not one).
    expect(ext.stdoutProblems.filter((p) => !p.includes('trailing bytes'))).toEqual([]);
    expect(crashReports(ext)).toEqual([]);
    client.socket.destroy();
  }

  // One more save on a fresh host: it must take the next number and clean up what the dead left.
  const ext = await pool.start({ home });
  const client = await pool.client(ext, {
    clientInfo: { name: 'kill-test', pid: process.pid, workspace: ws.workspace },
  });
  const last = saveParams(TOTAL_SAVES);
  const final = await client.request('save_reference', { data: last.data });
  expect(final.ok).toBe(true);
  if (final.ok)
    acknowledged.set(last.source_url, (final.result as { session_number: number }).session_number);
  sent.add(last.source_url);

  expect(failures).toEqual([]);
  expect(kills).toBeGreaterThan(5);

  const refs = ws.refsDir();
  const sessionsDir = path.join(refs, 'sessions');
  const names = fs.readdirSync(sessionsDir).sort();
  // Nothing but sessions in sessions/ once a save has run after the crashes.
  expect(names.filter((n) => !/^ref-session-\d{3,}\.json$/.test(n))).toEqual([]);
  const numbers = names.map((n) => Number(/\d+/.exec(n)?.[0]));
  expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));

  const urlOf = new Map<number, string>();
  for (const name of names) {
    const session = JSON.parse(fs.readFileSync(path.join(sessionsDir, name), 'utf8')) as {
      source_url: string;
      session_number: number;
      elements: Array<{ selector: string; screenshots: Record<string, string | null> }>;
    };
    expect(sent.has(session.source_url), `${name} is a save nobody asked for`).toBe(true);
    expect([...urlOf.values()]).not.toContain(session.source_url); // each request saved at most once
    urlOf.set(session.session_number, session.source_url);
    const index = Number(session.source_url.split('/').pop());
    expect(session.elements[0]?.selector).toBe(`#item-${index}`);
    for (const shot of Object.values(session.elements[0]?.screenshots ?? {})) {
      if (shot === null) continue;
      const png = fs.readFileSync(path.join(refs, shot));
      expect(png.subarray(png.length - PNG_END.length).equals(PNG_END), `${shot} is complete`).toBe(true);
    }
  }
  for (const [url, number] of acknowledged) {
    expect(urlOf.get(number), `acknowledged save ${url} as session ${number}`).toBe(url);
  }
  expect(acknowledged.size).toBeGreaterThan(TOTAL_SAVES / 4);

  // Every screenshot on disk is a whole PNG (orphans of killed saves included); no temp/lock files.
  for (const name of fs.readdirSync(path.join(refs, 'screenshots'))) {
    expect(name, 'no temp file among screenshots').toMatch(/^(full-page-\d{3,}|elem-\d{3,}-crop)\.png$/);
    const png = fs.readFileSync(path.join(refs, 'screenshots', name));
    expect(png.subarray(png.length - PNG_END.length).equals(PNG_END), `${name} is complete`).toBe(true);
  }
  expect(fs.readdirSync(refs).filter((n) => n.startsWith('.'))).toEqual([]);

  const merged = MergedReferenceData.parse(
    JSON.parse(fs.readFileSync(path.join(refs, 'reference-data.json'), 'utf8')),
  );
  expect(merged.sessions.map((s) => s.session_number)).toEqual(numbers);
  expect(merged.idea_folder).toBe(IDEA);
});
