import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXTENSION_ID, NATIVE_HOST_NAME } from '#shared/constants.js';
import type { HostInfo } from '#shared/envelopes.js';
import type { ProbeOutcome } from '#shared/node/bridge/probe.js';
import { runtimeDir, tokenPath } from '#shared/node/paths.js';
import { extensionIdFromKey } from './doctor/extension-built.js';
import { launcherHome, launcherTargets } from './doctor/host-manifest.js';
import { type CheckResult, type DoctorDeps, formatReport, runChecks } from './doctor.js';
import type { BrowserSearch } from './find-browser.js';
import { launcherScript } from './host-launcher.js';
import { install, type RegistrySeam, userDataDirManifest } from './install.js';
import { packageRoot } from './package-root.js';

const KEY = (
  JSON.parse(fs.readFileSync(path.join(packageRoot(), 'manifest.json'), 'utf8')) as { key: string }
).key;
const noRegistry: RegistrySeam = { setDefault: () => {}, deleteKey: () => {} };

let tmp: string;
let deps: DoctorDeps;
let host: HostInfo;
let probeOutcome: () => ProbeOutcome;
let browser: BrowserSearch;

const FOUND: BrowserSearch = {
  found: {
    path: '/usr/bin/chromium',
    kind: 'chromium',
    version: 'Chromium 156.0.1',
    major: 156,
    source: 'Chromium',
  },
  rejected: [],
  looked: ['/usr/bin/chromium'],
};

let socketServer: net.Server | null = null;

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xd-'));
  const home = path.join(tmp, 'h');
  const entry = path.join(tmp, 'x-ipe-uiux.js');
  fs.writeFileSync(entry, '');
  const platform = { platform: 'linux' as const, home: path.join(tmp, 'user'), env: {} };
  install({
    browser: 'chromium',
    userDataDir: path.join(tmp, 'profile'),
    home,
    platform,
    nodePath: process.execPath,
    entry,
    registry: noRegistry,
    browserPresent: () => true,
  });
  const ext = path.join(tmp, 'ext');
  fs.mkdirSync(ext);
  fs.writeFileSync(path.join(ext, 'manifest.json'), JSON.stringify({ version: '0.1.0', key: KEY }));
  const run = runtimeDir(home);
  fs.mkdirSync(run, { mode: 0o700, recursive: true });
  // A live pid (this test process) so the descriptor counts as a running host.
  // A socket of ours where a host's would be: doctor checks it (it never connects here; the probe is a seam).
  const endpoint = path.join(run, `h-${process.pid}.sock`);
  const server = net.createServer();
  socketServer = server;
  await new Promise<void>((resolve) => server.listen(endpoint, resolve));
  fs.chmodSync(endpoint, 0o600);
  fs.writeFileSync(
    path.join(run, `h-${process.pid}.json`),
    JSON.stringify({ pid: process.pid, endpoint, protocol: 1, host_version: '0.1.0', started_at: 'x' }),
    { mode: 0o600 },
  );
  const ws = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(ws, 'x-ipe-docs', 'ideas', '001. Demo'), { recursive: true });
  host = {
    pid: process.pid,
    host_version: '0.1.0',
    protocol: 1,
    started_at: 'x',
    endpoint: '/nowhere.sock',
    log_file: '/log',
    extension_connected: true,
    origin: null,
    extension: {
      id: EXTENSION_ID,
      version: '0.1.0',
      user_scripts_allowed: true,
      browser: { browser_id: 'chromium-1', name: 'Chromium', version: '156', user_agent: 'ua' },
    },
  };
  probeOutcome = () => ({ ok: true, host });
  browser = FOUND;
  deps = {
    home,
    workspace: ws,
    platform,
    extensionDir: ext,
    findBrowser: () => browser,
    probe: async () => probeOutcome(),
  };
});
afterEach(async () => {
  const server = socketServer;
  socketServer = null;
  if (server !== null) await new Promise((resolve) => server.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function failing(): Promise<CheckResult[]> {
  const report = await runChecks(deps);
  return report.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
}

describe('doctor', () => {
  it('passes a healthy setup, in data-flow order', async () => {
    const report = await runChecks(deps);
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['browser', 'ok'],
      ['extension_built', 'ok'],
      ['host_manifest', 'ok'],
      ['token', 'ok'],
      ['bridge', 'ok'],
      ['extension_connected', 'ok'],
      ['user_scripts', 'ok'],
      ['workspace', 'ok'],
    ]);
    expect(report.ok).toBe(true);
    expect(formatReport(report)).toContain('All links are fine.');
  });

  it('derives the pinned extension ID from the manifest key', () => {
    expect(extensionIdFromKey(KEY)).toBe(EXTENSION_ID);
  });

  it('browser missing → fail with install advice', async () => {
    browser = { found: null, rejected: [], looked: ['/usr/bin/chromium'] };
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'browser', status: 'fail' });
    expect(c?.fix).toContain('CHROME_PATH');
  });

  it('only branded Chrome ≥ 137 → explains --load-extension is ignored', async () => {
    const candidate = {
      path: '/usr/bin/google-chrome',
      kind: 'chrome' as const,
      version: 'Google Chrome 140.0',
      major: 140,
      source: 'Google Chrome',
    };
    browser = { found: null, rejected: [{ candidate, reason: 'x' }], looked: [candidate.path] };
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'browser', status: 'warn' });
    expect(c?.detail).toContain('ignores --load-extension');
    expect(c?.fix).toContain('Chromium');
  });

  it('extension not built / key not pinned → fail with npm run build', async () => {
    fs.rmSync(path.join(deps.extensionDir, 'manifest.json'));
    let [c] = await failing();
    expect(c).toMatchObject({ id: 'extension_built', status: 'fail' });
    expect(c?.fix).toContain('npm run build');
    fs.writeFileSync(path.join(deps.extensionDir, 'manifest.json'), JSON.stringify({ version: '1' }));
    [c] = await failing();
    expect(c?.detail).toContain('no "key"');
  });

  it('host manifest missing → fail with install', async () => {
    fs.rmSync(userDataDirManifest(path.join(tmp, 'profile')));
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'host_manifest', status: 'fail' });
    expect(c?.detail).toContain('missing');
    expect(c?.fix).toContain('x-ipe-uiux install');
  });

  it('host manifest with a wrong origin, a non-executable launcher, or a vanished node → named', async () => {
    const file = userDataDirManifest(path.join(tmp, 'profile'));
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { allowed_origins: string[]; path: string };
    fs.writeFileSync(file, JSON.stringify({ ...manifest, allowed_origins: ['chrome-extension://abc/'] }));
    let [c] = await failing();
    expect(c?.detail).toContain('does not contain chrome-extension://gkajpnmdfljgjhdbkbldnadecmdplglg/');

    fs.writeFileSync(file, JSON.stringify(manifest));
    fs.chmodSync(manifest.path, 0o644);
    [c] = await failing();
    expect(c?.detail).toContain('is not executable');

    fs.writeFileSync(
      manifest.path,
      launcherScript({
        nodePath: '/gone/node',
        entry: path.join(tmp, 'x-ipe-uiux.js'),
        home: deps.home,
        windows: false,
      }),
      { mode: 0o755 },
    );
    fs.chmodSync(manifest.path, 0o755);
    [c] = await failing();
    expect(c?.detail).toContain("launcher's node /gone/node does not exist");
  });

  it('a registered launcher that sets another XIPE_UIUX_HOME than the shell → fail naming both', async () => {
    const other = path.join(tmp, "other home's");
    install({
      browser: 'chromium',
      home: other,
      platform: deps.platform,
      nodePath: process.execPath,
      entry: path.join(tmp, 'x-ipe-uiux.js'),
      registry: noRegistry,
      browserPresent: () => true,
    });
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'host_manifest', status: 'fail' });
    expect(c?.detail).toContain(`its launcher sets XIPE_UIUX_HOME=${other}, this shell uses ${deps.home}`);
    expect(c?.fix).toContain(`export XIPE_UIUX_HOME='${other}'`);
  });

  it('token readable by others → fail with chmod 600', async () => {
    fs.chmodSync(tokenPath(deps.home), 0o644);
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'token', status: 'fail' });
    expect(c?.fix).toBe(`chmod 600 '${tokenPath(deps.home)}'`);
  });

  it('token owned by someone else → fail', async () => {
    deps.uid = 12345;
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'token', status: 'fail' });
    expect(c?.detail).toContain('not 12345');
  });

  it('no live host → bridge fails, later links are skipped, not blamed', async () => {
    fs.rmSync(runtimeDir(deps.home), { recursive: true });
    const report = await runChecks(deps);
    const byId = Object.fromEntries(report.checks.map((c) => [c.id, c]));
    expect(byId.bridge).toMatchObject({ status: 'fail' });
    expect(byId.bridge?.fix).toContain('x-ipe-uiux start');
    expect(byId.extension_connected?.status).toBe('skip');
    expect(byId.user_scripts?.status).toBe('skip');
    expect(report.ok).toBe(false);
  });

  it('runtime dir open to others → fail with chmod 700', async () => {
    fs.chmodSync(runtimeDir(deps.home), 0o755);
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'bridge', status: 'fail' });
    expect(c?.fix).toContain('chmod 700');
  });

  it('host rejects the token → says the homes differ', async () => {
    probeOutcome = () => ({
      ok: false,
      error: { code: 'UNAUTHORIZED', message: 'Unauthorized (wrong token).' },
    });
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'bridge', status: 'fail' });
    expect(c?.fix).toContain('XIPE_UIUX_HOME');
  });

  it('extension not connected → fail with reload advice', async () => {
    host = { ...host, extension_connected: false, extension: null };
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'extension_connected', status: 'fail' });
    expect(c?.fix).toContain('chrome://extensions');
  });

  it('user scripts off → fail with the exact toggle', async () => {
    const ext = host.extension;
    if (ext === null) throw new Error('setup');
    host = { ...host, extension: { ...ext, user_scripts_allowed: false } };
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'user_scripts', status: 'fail' });
    expect(c?.fix).toContain('chrome://extensions → X-IPE UI/UX Reference → Details');
    expect(c?.fix).toContain('Allow User Scripts');
  });

  it('workspace without x-ipe-docs/ideas → fail with init --idea', async () => {
    fs.rmSync(path.join(deps.workspace, 'x-ipe-docs'), { recursive: true });
    const [c] = await failing();
    expect(c).toMatchObject({ id: 'workspace', status: 'fail' });
    expect(c?.fix).toContain('x-ipe-uiux init --idea');
    expect(formatReport(await runChecks(deps))).toMatch(
      /\[FAIL\] workspace has x-ipe-docs\/ideas: .*\n {7}fix: /,
    );
  });
});

describe('launcherHome', () => {
  it('reads back the home from both launcher flavours, quotes and percents included', () => {
    for (const windows of [false, true]) {
      const home = windows ? 'C:\\Users\\a 100%\\x' : "/home/o'brien/x";
      const script = launcherScript({ nodePath: '/n', entry: '/e.js', home, windows });
      expect(launcherHome(script)).toBe(home);
    }
    expect(launcherHome('#!/bin/sh\nexec node x host\n')).toBeNull();
  });
});

describe('launcherTargets', () => {
  it('reads back node and entry from both launcher flavours', () => {
    for (const windows of [false, true]) {
      const o = {
        nodePath: "/a b/it's/node",
        nodeFlags: ['--max-semi-space-size=1', '--no-turbofan'],
        entry: '/x/100%/e.js',
        home: '/h',
        windows,
      };
      if (windows) {
        o.nodePath = 'C:\\Program Files\\node.exe';
      }
      expect(launcherTargets(launcherScript(o))).toEqual({ node: o.nodePath, entry: o.entry });
    }
    expect(launcherTargets('#!/bin/sh\necho hi\n')).toBeNull();
  });

  it('reads launchers written before Node flags were added', () => {
    expect(launcherTargets(`exec '/usr/bin/node' '/x/e.js' host "$@"\n`)).toEqual({
      node: '/usr/bin/node',
      entry: '/x/e.js',
    });
    expect(launcherTargets('"C:\\node.exe" "C:\\e.js" host %*\r\n')).toEqual({
      node: 'C:\\node.exe',
      entry: 'C:\\e.js',
    });
  });
});

it('names the host manifest file', () => {
  expect(path.basename(userDataDirManifest('/p'))).toBe(`${NATIVE_HOST_NAME}.json`);
});
