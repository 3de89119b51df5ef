import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { NATIVE_HOST_NAME } from '#shared/constants.js';
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

/** The environment of a machine without a display, in a temporary XIPE_UIUX_HOME and HOME. */
function freshEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xcs-'));
  const { DISPLAY: _d, WAYLAND_DISPLAY: _w, ...env } = process.env;
  return { ...env, XIPE_UIUX_HOME: path.join(tmp, 'h'), HOME: path.join(tmp, 'user'), ...extra };
}

/** Runs `start` until it prints ready; the host pid from that line. */
async function startReady(args: string[], env: NodeJS.ProcessEnv) {
  expect(fs.existsSync(path.join(REPO_ROOT, 'dist', 'extension', 'manifest.json'))).toBe(true);
  const stderr = { text: '' };
  const c = spawn(process.execPath, [CLI_BIN, 'start', '--timeout', '90', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = c;
  c.stderr?.on('data', (chunk: Buffer) => {
    stderr.text += chunk.toString('utf8');
  });
  const output = { text: '' };
  const ready = await waitForLine(c, /^ready: /, output).catch((err: Error) => {
    throw new Error(`${err.message}\nstderr:\n${stderr.text}`);
  });
  expect(ready).toMatch(/^ready: extension connected \(host pid \d+\)$/);
  return { c, output, stderr, hostPid: Number(/host pid (\d+)/.exec(ready)?.[1]) };
}

/** The host exits once its browser is gone (Chrome closes the port). */
async function hostGone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      return true;
    }
  }
  return false;
}

// A loaded machine may take a while to start Chromium: start's own limit (90 s) comes first.
it('start --headless reaches a connected extension, prints ready, and cleans up on SIGTERM', {
  timeout: 120_000,
}, async () => {
  const env = freshEnv();
  const { c: started, output, hostPid } = await startReady(['--headless'], env);

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

  const exited = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)));
  started.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(output.text + (started.stdout?.read()?.toString() ?? '')).toContain('ready:');
  // The browser is gone, so Chrome closed the port and the host exited too.
  expect(await hostGone(hostPid)).toBe(true);
});

// Windows has no SIGHUP to send (a closed console is a different event there).
it.skipIf(process.platform === 'win32')(
  '`npm start --headless` (npm keeps the option: npm_config_headless) runs headless; SIGHUP stops it all',
  async () => {
    const env = freshEnv({ npm_config_headless: 'true' });
    const { c, output, stderr, hostPid } = await startReady([], env);
    expect(stderr.text).toContain('npm kept --headless for itself');
    const exited = new Promise<string>((resolve) =>
      c.once('exit', (code, signal) => resolve(`${code} ${signal}`)),
    );
    c.kill('SIGHUP'); // what closing the terminal sends
    expect(await exited, `${output.text}\n${stderr.text}`).toBe('0 null');
    expect(await hostGone(hostPid)).toBe(true);
  },
);

// Only X11/Wayland systems need a display server; macOS and Windows always have a window system.
it.runIf(process.platform === 'linux')(
  'without a display, says so and how to run headless instead of "the browser exited"',
  () => {
    const env = freshEnv();
    const result = spawnSync(process.execPath, [CLI_BIN, 'start', '--timeout', '45'], {
      env,
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('there is no display (Chromium says "Missing X server or $DISPLAY")');
    expect(result.stderr).toContain('npm run start:headless');
    expect(result.stderr).toContain('npm start -- --headless');
  },
);
