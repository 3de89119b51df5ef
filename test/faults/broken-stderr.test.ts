/**
 * A host whose stderr reader is gone (the browser that launched it crashed, or a test runner
 * exited): every log line then fails with EPIPE. Found in this suite: that EPIPE became an uncaught
 * exception, whose handler logged it — to stderr, failing again — forever, starving the event loop
 * (the host never exited when stdin closed) and growing host.log by gigabytes. The host must keep
 * serving, keep its log bounded, and exit when its stdin closes.
 */
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { HostPool, within } from '../helpers/fault-host.js';

const pool = new HostPool();
afterEach(async () => {
  expect(await pool.disposeAll()).toEqual([]);
});

it('keeps serving with a broken stderr, keeps host.log small, and exits when stdin closes', async () => {
  const ext = await pool.start();
  ext.child.stderr?.destroy(); // our end of its stderr pipe is gone: its next log line gets EPIPE
  const client = await pool.client(ext); // connecting and authenticating both log
  for (let i = 0; i < 20; i++) expect((await client.request('host_status', {})).ok).toBe(true);
  expect((await client.request('no_such_command', {})).ok).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(fs.statSync(ext.logFile()).size).toBeLessThan(256 * 1024);
  ext.child.stdin?.end();
  const exit = await within(ext.exited, 10_000, 'the host exit after stdin closed');
  expect(exit.signal).toBeNull();
  expect(fs.statSync(ext.logFile()).size).toBeLessThan(256 * 1024);
});
