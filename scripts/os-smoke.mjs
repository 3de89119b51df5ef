#!/usr/bin/env node
// CI on macOS and Windows (.github/workflows/ci.yml): the commands against the real OS locations,
// which the test suite only reaches through seams. Plain Node, so it runs the same everywhere.
//
//   node scripts/os-smoke.mjs install   install → the host manifest (or, on Windows, the HKCU
//                                        registry key) is where Chrome reads it → doctor sees it →
//                                        uninstall removes both
//   node scripts/os-smoke.mjs start     start --headless (CHROME_PATH) until "ready:", then stops it
//
// Uses the real HOME / APPDATA: run it on a throwaway machine (a CI runner), not your own.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin', 'x-ipe-uiux.js');
const HOST = 'com.xipe.uiux_reference';

function run(args, { allowFail = false } = {}) {
  try {
    return execFileSync(process.execPath, [cli, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    if (allowFail) return String(err.stdout ?? '');
    throw new Error(`x-ipe-uiux ${args.join(' ')} failed:\n${err.stdout}\n${err.stderr}`);
  }
}

function check(ok, message) {
  if (!ok) throw new Error(`os-smoke: ${message}`);
  process.stdout.write(`ok: ${message}\n`);
}

/** Where Chrome reads the registration on this OS: a file, or (Windows) the registry value. */
function registration() {
  if (process.platform === 'win32') {
    const key = `HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\${HOST}`;
    try {
      const out = execFileSync('reg', ['query', key, '/ve'], { encoding: 'utf8' });
      const file = /REG_SZ\s+(.+)/.exec(out)?.[1]?.trim();
      return { where: key, manifest: file ?? null };
    } catch {
      return { where: key, manifest: null };
    }
  }
  const base =
    process.platform === 'darwin'
      ? path.join(os.homedir(), 'Library', 'Application Support', 'Google', 'Chrome')
      : path.join(os.homedir(), '.config', 'google-chrome');
  const file = path.join(base, 'NativeMessagingHosts', `${HOST}.json`);
  return { where: file, manifest: fs.existsSync(file) ? file : null };
}

function installRoundTrip() {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-smoke-'));
  fs.mkdirSync(path.join(workspace, 'x-ipe-docs', 'ideas', '001. Smoke'), { recursive: true });
  process.stdout.write(run(['install', '--browser', 'chrome', '--workspace', workspace]));
  const reg = registration();
  check(reg.manifest !== null, `the host is registered where Chrome reads it (${reg.where})`);
  const manifest = JSON.parse(fs.readFileSync(reg.manifest, 'utf8'));
  check(
    path.isAbsolute(manifest.path) && fs.existsSync(manifest.path),
    `its launcher exists (${manifest.path})`,
  );
  // No browser runs here, so doctor fails on the bridge; the host manifest check must pass.
  const report = JSON.parse(run(['doctor', '--json', '--workspace', workspace], { allowFail: true }));
  const hostCheck = report.checks.find((c) => c.id === 'host_manifest');
  check(hostCheck?.status === 'ok', `doctor finds the registration: ${hostCheck?.detail}`);
  process.stdout.write(run(['uninstall']));
  check(registration().manifest === null, 'uninstall removed the registration');
  check(!fs.existsSync(manifest.path), 'uninstall removed the launcher');
}

async function startHeadless() {
  if (!process.env.CHROME_PATH)
    throw new Error('os-smoke start: set CHROME_PATH to a Chromium or Chrome for Testing');
  const child = spawn(process.execPath, [cli, 'start', '--headless', '--timeout', '120'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const ready = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 150_000);
    child.stdout.on('data', () => {
      if (/^ready: /m.test(output)) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  process.stdout.write(output);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.exitCode === null) {
    // Windows has no SIGTERM for a child: end the tree (browser and host included).
    if (process.platform === 'win32') execFileSync('taskkill', ['/pid', String(child.pid), '/T', '/F']);
    else child.kill('SIGTERM');
  }
  await exited;
  check(ready, 'start --headless reported ready (extension connected to its host)');
}

const mode = process.argv[2];
if (mode === 'install') installRoundTrip();
else if (mode === 'start') await startHeadless();
else {
  process.stderr.write('usage: node scripts/os-smoke.mjs install|start\n');
  process.exitCode = 2;
}
