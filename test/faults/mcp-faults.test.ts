/**
 * Faults between the MCP server and the host (Faults): a host SIGKILLed while a tool
 * call waits on it, an extension that never answers or answers late, an MCP server killed while
 * its call is pending. Each pending call ends with a clear error within a bound (never a hang), and
 * the next call works once a host is back — nobody restarts anything else by hand.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InjectScriptParams } from '#shared/commands/index.js';
import type { FakeExtension } from '../helpers/fake-extension.js';
import { HostPool, within } from '../helpers/fault-host.js';
import { McpProcess } from '../helpers/fault-mcp.js';

const pool = new HostPool();
const servers: McpProcess[] = [];
let scratch: string;
let script: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-mcpf-'));
  script = path.join(scratch, 'probe.js');
  fs.writeFileSync(script, 'document.title;\n');
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  expect(await pool.disposeAll()).toEqual([]);
});

const TAB = { id: 41, url: 'https://example.test/page', title: 'Example' };
const answer = (params: unknown) => ({
  returnValue: (params as InjectScriptParams).code?.length ?? 0,
  tab: TAB,
  method: 'userScripts',
});

function freshHome(): string {
  return fs.mkdtempSync(path.join(scratch, 'h-'));
}

async function mcp(home: string): Promise<McpProcess> {
  const server = await McpProcess.start({ home, workspace: scratch });
  servers.push(server);
  return server;
}

async function host(
  home: string,
  handlers: Record<string, (p: unknown) => unknown> = {},
): Promise<FakeExtension> {
  const ext = await pool.start({ home, handlers });
  await ext.descriptor();
  return ext;
}

describe('host killed mid-call', () => {
  it('the pending inject_script fails fast with a clear error; after a restart the next call works', async () => {
    const home = freshHome();
    const first = await host(home); // no handler: the extension never answers
    const server = await mcp(home);
    const pending = server.call('inject_script', { file_path: script, tab_id: 41, timeout_ms: 120_000 });
    await first.nextRequest('inject_script'); // the call is in the browser's hands now
    first.child.kill('SIGKILL');
    // Bounded far below the call's own 120 s: the lost link is noticed, not waited out.
    const failed = await within(pending, 15_000, 'the call pending on a killed host');
    expect(failed.isError).toBe(true);
    expect(failed.body).toMatchObject({ tool_name: 'inject_script' });
    expect(['BACKEND_UNREACHABLE', 'EXTENSION_NOT_CONNECTED']).toContain(failed.body.error);
    expect(String(failed.body.message).length).toBeGreaterThan(20);

    // While no host runs, calls answer at once with BACKEND_UNREACHABLE (never a hang).
    const none = await within(server.call('list_tabs', {}), 15_000, 'a call with no host');
    expect(none).toMatchObject({ isError: true, body: { error: 'BACKEND_UNREACHABLE' } });

    await host(home, { inject_script: answer });
    const next = await within(
      server.call('inject_script', { file_path: script, tab_id: 41 }),
      15_000,
      'the call after the restart',
    );
    expect(next).toMatchObject({
      isError: false,
      body: { success: true, returnValue: 'document.title;\n'.length },
    });
  });

  it('a host killed during save_uiux_reference: an error or a success, never a hang, and the next save works', async () => {
    const home = freshHome();
    const ideaDir = path.join(scratch, 'x-ipe-docs', 'ideas', 'kill-idea');
    fs.mkdirSync(ideaDir, { recursive: true });
    const first = await host(home);
    const server = await mcp(home);
    const data = (n: number) => ({
      version: '1.0',
      source_url: `https://example.com/${n}`,
      timestamp: '2025-01-15T10:30:00Z',
      idea_folder: 'kill-idea',
      colors: [{ id: 'color-001', hex: '#123456' }],
    });
    const calls = Array.from({ length: 5 }, (_, i) => server.call('save_uiux_reference', data(i)));
    first.child.kill('SIGKILL');
    const outcomes = await within(Promise.all(calls), 30_000, 'saves pending on a killed host');
    for (const o of outcomes) {
      if (o.isError)
        expect(['BACKEND_UNREACHABLE', 'EXTENSION_NOT_CONNECTED', 'TIMEOUT']).toContain(o.body.error);
      else expect(o.body).toMatchObject({ status: 'success' });
    }
    await host(home);
    const after = await within(
      server.call('save_uiux_reference', data(99)),
      30_000,
      'the save after restart',
    );
    expect(after).toMatchObject({ isError: false, body: { status: 'success' } });
    const sessions = fs.readdirSync(path.join(ideaDir, 'uiux-references', 'sessions')).sort();
    const numbers = sessions.map((n) => Number(/\d+/.exec(n)?.[0]));
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect(after.body.session_number).toBe(numbers.length);
  });
});

describe('an extension that never answers or answers late', () => {
  it('answers TIMEOUT near the call’s timeout_ms, drops the late answer, and keeps serving', async () => {
    const home = freshHome();
    const ext = await host(home);
    const server = await mcp(home);
    const pending = server.call('inject_script', { file_path: script, tab_id: 41, timeout_ms: 300 });
    const relayed = await ext.nextRequest('inject_script');
    const timedOut = await within(pending, 15_000, 'a call whose extension never answers');
    expect(timedOut).toMatchObject({ isError: true, body: { error: 'TIMEOUT', tool_name: 'inject_script' } });
    // The late answer arrives after the TIMEOUT: dropped, nothing breaks.
    ext.respond(relayed.id, { result: answer({ code: 'late' }) });
    ext.handle('inject_script', answer);
    const next = await server.call('inject_script', { file_path: script, tab_id: 41 });
    expect(next).toMatchObject({ isError: false, body: { success: true } });
  });
});

describe('MCP server restarted mid-call', () => {
  it('the killed server’s call fails at once; the host forgets it; a new server works', async () => {
    const home = freshHome();
    const ext = await host(home);
    const doomed = await mcp(home);
    const pending = doomed.call('inject_script', { file_path: script, tab_id: 41, timeout_ms: 120_000 });
    const relayed = await ext.nextRequest('inject_script');
    const pid = doomed.pid;
    expect(pid).not.toBeNull();
    if (pid !== null) process.kill(pid, 'SIGKILL');
    await expect(within(pending, 15_000, 'the call of a killed MCP server')).rejects.toThrow();

    // The host dropped the pending relay of the departed client; the late answer goes nowhere.
    ext.respond(relayed.id, { result: answer({ code: 'late' }) });
    ext.handle('inject_script', answer);
    const fresh = await mcp(home);
    const next = await within(
      fresh.call('inject_script', { file_path: script, tab_id: 41 }),
      15_000,
      'the new server’s call',
    );
    expect(next).toMatchObject({ isError: false, body: { success: true } });
    expect(ext.hasExited).toBe(false);
    expect(ext.logEntries().some((e) => e.msg === 'dropped pending requests of a departed client')).toBe(
      true,
    );
  });
});
