import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { NATIVE_HOST_NAME } from '../../shared/src/constants.js';
import { CLI_BIN, REPO_ROOT } from '../helpers/fake-extension.js';

/**
 * Smoke test of the main job: `x-ipe-uiux start --headless` with real Chromium, the built
 * extension and the real host, in a temporary XIPE_UIUX_HOME and HOME.
 */

let tmp = '';
let child: ChildProcess | null = null;

afterEach(async () => {
  if (child !== null && child.exitCode === null) {
    const c = child;
    const gone = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGKILL');
    await gone;
  }
  child = null;
  if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true });
});

function waitForLine(c: ChildProcess, pattern: RegExp, output: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output.text += chunk.toString('utf8');
      const line = output.text.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) {
        c.stdout?.off('data', onData);
        resolve(line);
      }
    };
    c.stdout?.on('data', onData);
    c.once('exit', (code) =>
      reject(new Error(`start exited with ${code} before ${pattern}:\n${output.text}`)),
    );
  });
}

it('start --headless reaches a connected extension, prints ready, and cleans up on SIGTERM', async () => {
  expect(fs.existsSync(path.join(REPO_ROOT, 'dist', 'extension', 'manifest.json'))).toBe(true);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xcs-'));
  const env = { ...process.env, XIPE_UIUX_HOME: path.join(tmp, 'h'), HOME: path.join(tmp, 'user') };
  const stderr = { text: '' };
  child = spawn(process.execPath, [CLI_BIN, 'start', '--headless', '--timeout', '45'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.text += chunk.toString('utf8');
  });
  const output = { text: '' };
  const ready = await waitForLine(child, /^ready: /, output).catch((err: Error) => {
    throw new Error(`${err.message}\nstderr:\n${stderr.text}`);
  });
  expect(ready).toMatch(/^ready: extension connected \(host pid \d+\)$/);
  const hostPid = Number(/host pid (\d+)/.exec(ready)?.[1]);

  // What start set up: the demo workspace, the profile's host manifest and the user-scripts pref.
  const home = path.join(tmp, 'h');
  expect(fs.existsSync(path.join(home, 'demo-workspace', 'x-ipe-docs', 'ideas'))).toBe(true);
  const profile = path.join(home, 'profiles', 'default');
  expect(fs.existsSync(path.join(profile, 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.json`))).toBe(true);
  expect(output.text).toContain('x-ipe-uiux init --client all');
  expect(output.text).toMatch(/page: +http:\/\/127\.0\.0\.1:\d+\//);

  // doctor agrees, link by link.
  const doctor = spawnSync(
    process.execPath,
    [CLI_BIN, 'doctor', '--json', '--workspace', path.join(home, 'demo-workspace')],
    { env, encoding: 'utf8' },
  );
  const report = JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string }> };
  expect(report.checks.filter((c) => c.status !== 'ok')).toEqual([]);

  const c = child;
  const exited = new Promise<number | null>((resolve) => c.once('exit', (code) => resolve(code)));
  c.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(output.text + (c.stdout?.read()?.toString() ?? '')).toContain('ready:');
  // The browser is gone, so Chrome closed the port and the host exited too.
  const deadline = Date.now() + 15_000;
  let alive = true;
  while (alive && Date.now() < deadline) {
    try {
      process.kill(hostPid, 0);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      alive = false;
    }
  }
  expect(alive).toBe(false);
});
