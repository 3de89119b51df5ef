import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '#shared/constants.js';
import { loadConfig } from '#shared/node/config.js';
import { BROWSERS, type BrowserName, nativeHostsDir, type PlatformEnv, registryKey } from './browsers.js';
import { launcherScript } from './host-launcher.js';
import {
  type InstallOptions,
  install,
  type RegistrySeam,
  uninstall,
  userDataDirManifest,
} from './install.js';
import { readInstallRecord } from './install-record.js';
import { acceptedNodeFlags, HOST_NODE_FLAGS } from './node-flags.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-install-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

class RecordingRegistry implements RegistrySeam {
  readonly calls: string[] = [];
  readonly keys = new Map<string, string>();
  setDefault(key: string, value: string): void {
    this.calls.push(`set ${key} = ${value}`);
    this.keys.set(key, value);
  }
  deleteKey(key: string): void {
    this.calls.push(`delete ${key}`);
    this.keys.delete(key);
  }
}

function options(platform: NodeJS.Platform, over: Partial<InstallOptions> = {}): InstallOptions {
  const home = path.join(tmp, 'user');
  const p: PlatformEnv = { platform, home, env: {} };
  return {
    browser: 'all',
    home: path.join(tmp, 'xipe home'),
    platform: p,
    nodePath: '/opt/node 20/bin/node',
    entry: "/srv/it's here/bin/x-ipe-uiux.js",
    registry: new RecordingRegistry(),
    browserPresent: () => true,
    ...over,
  };
}

const EXPECTED_LINUX: Record<BrowserName, string> = {
  chrome: '.config/google-chrome/NativeMessagingHosts',
  chromium: '.config/chromium/NativeMessagingHosts',
  edge: '.config/microsoft-edge/NativeMessagingHosts',
  brave: '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts',
};
const EXPECTED_DARWIN: Record<BrowserName, string> = {
  chrome: 'Library/Application Support/Google/Chrome/NativeMessagingHosts',
  chromium: 'Library/Application Support/Chromium/NativeMessagingHosts',
  edge: 'Library/Application Support/Microsoft Edge/NativeMessagingHosts',
  brave: 'Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts',
};
const EXPECTED_REGISTRY: Record<BrowserName, string> = {
  chrome: 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.xipe.uiux_reference',
  chromium: 'HKCU\\Software\\Chromium\\NativeMessagingHosts\\com.xipe.uiux_reference',
  edge: 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.xipe.uiux_reference',
  brave: 'HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\com.xipe.uiux_reference',
};

describe('per-browser locations', () => {
  it.each(BROWSERS)('%s on linux and darwin', (browser) => {
    const home = '/home/u';
    expect(nativeHostsDir(browser, { platform: 'linux', home, env: {} })).toBe(
      path.join(home, EXPECTED_LINUX[browser]),
    );
    expect(nativeHostsDir(browser, { platform: 'darwin', home, env: {} })).toBe(
      path.join(home, EXPECTED_DARWIN[browser]),
    );
    expect(nativeHostsDir(browser, { platform: 'win32', home, env: {} })).toBeNull();
    expect(registryKey(browser, NATIVE_HOST_NAME)).toBe(EXPECTED_REGISTRY[browser]);
  });

  it('honours XDG_CONFIG_HOME on linux', () => {
    expect(
      nativeHostsDir('chromium', { platform: 'linux', home: '/home/u', env: { XDG_CONFIG_HOME: '/x' } }),
    ).toBe('/x/chromium/NativeMessagingHosts');
  });
});

describe('install and uninstall on unix layouts', () => {
  it.each(['linux', 'darwin'] as const)(
    'writes a manifest per browser on %s and removes them again',
    (platform) => {
      const o = options(platform);
      const report = install(o);
      const expected = platform === 'linux' ? EXPECTED_LINUX : EXPECTED_DARWIN;
      expect(report.manifests).toEqual(
        BROWSERS.map((b) => path.join(o.platform.home, expected[b], `${NATIVE_HOST_NAME}.json`)),
      );
      for (const file of report.manifests) {
        const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
        expect(manifest).toMatchObject({
          name: NATIVE_HOST_NAME,
          type: 'stdio',
          path: report.launcher,
          allowed_origins: ['chrome-extension://gkajpnmdfljgjhdbkbldnadecmdplglg/'],
        });
        expect(path.isAbsolute(String(manifest.path))).toBe(true);
      }
      expect(fs.statSync(report.launcher).mode & 0o111).not.toBe(0);
      expect(fs.readFileSync(path.join(o.home, 'token'), 'utf8').trim()).toBe(report.token);
      expect(fs.statSync(path.join(o.home, 'token')).mode & 0o777).toBe(0o600);

      const removed = uninstall({ home: o.home, registry: o.registry });
      expect(removed.removed).toEqual(expect.arrayContaining([...report.manifests, report.launcher]));
      for (const file of report.manifests) expect(fs.existsSync(file)).toBe(false);
      expect(fs.existsSync(report.launcher)).toBe(false);
      // The token and the browsers' own folders are not install's to remove.
      expect(fs.existsSync(path.join(o.home, 'token'))).toBe(true);
      expect(fs.existsSync(path.dirname(report.manifests[0] ?? ''))).toBe(true);
    },
  );

  it('--browser all installs only where a browser is present', () => {
    const o = options('linux', { browserPresent: (b) => b === 'brave' || b === 'chromium' });
    const report = install(o);
    expect(report.manifests.map((m) => path.relative(o.platform.home, path.dirname(m)))).toEqual([
      EXPECTED_LINUX.chromium,
      EXPECTED_LINUX.brave,
    ]);
  });

  it('uninstall --browser removes only that browser and keeps the launcher for the others', () => {
    const o = options('linux');
    const report = install(o);
    const edge = report.manifests.find((m) => m.includes('microsoft-edge'));
    const result = uninstall({ home: o.home, browser: 'edge', registry: o.registry });
    expect(result.removed).toEqual([edge]);
    expect(fs.existsSync(report.launcher)).toBe(true);
    for (const m of report.manifests.filter((m) => m !== edge)) expect(fs.existsSync(m)).toBe(true);
    expect(readInstallRecord(o.home).entries.map((e) => e.target)).toEqual(['chrome', 'chromium', 'brave']);
  });

  it('--user-data-dir writes into DIR/NativeMessagingHosts and uninstall removes only that one', () => {
    const o = options('linux', { browser: 'chromium' });
    install(o);
    const profile = path.join(tmp, 'profile dir');
    const report = install({ ...o, userDataDir: profile });
    expect(report.manifests).toEqual([
      path.join(profile, 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.json`),
    ]);
    expect(userDataDirManifest(profile)).toBe(report.manifests[0]);
    const result = uninstall({ home: o.home, userDataDir: profile, registry: o.registry });
    expect(result.removed).toEqual(report.manifests);
    expect(readInstallRecord(o.home).entries.map((e) => e.target)).toEqual(['chromium']);
  });

  it('is idempotent: installing twice records each manifest once', () => {
    const o = options('linux', { browser: 'chrome' });
    install(o);
    install(o);
    expect(readInstallRecord(o.home).entries).toHaveLength(1);
  });

  it('registers the workspace and notes a missing ideas folder', () => {
    const ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    const report = install(options('linux', { browser: 'chrome', workspace: ws }));
    expect(report.workspace).toBe(ws);
    expect(report.notes.join('\n')).toContain('x-ipe-docs/ideas');
    expect(loadConfig(path.join(tmp, 'xipe home')).workspaces).toEqual([ws]);
  });
});

describe('install on windows goes through the registry seam', () => {
  it('sets one HKCU key per browser to the manifest path and deletes them on uninstall', () => {
    const registry = new RecordingRegistry();
    const o = options('win32', { registry, browserPresent: (b) => b !== 'brave' });
    const report = install(o);
    expect(report.registry).toEqual([
      EXPECTED_REGISTRY.chrome,
      EXPECTED_REGISTRY.chromium,
      EXPECTED_REGISTRY.edge,
    ]);
    for (const [key, manifest] of registry.keys) {
      expect(report.registry).toContain(key);
      expect(JSON.parse(fs.readFileSync(manifest, 'utf8'))).toMatchObject({
        allowed_origins: [EXTENSION_ORIGIN],
      });
    }
    expect(report.launcher.endsWith('.bat')).toBe(true);

    uninstall({ home: o.home, browser: 'edge', registry });
    expect([...registry.keys.keys()]).toEqual([EXPECTED_REGISTRY.chrome, EXPECTED_REGISTRY.chromium]);
    uninstall({ home: o.home, registry });
    expect(registry.keys.size).toBe(0);
    expect(registry.calls.filter((c) => c.startsWith('delete'))).toHaveLength(3);
    for (const m of report.manifests) expect(fs.existsSync(m)).toBe(false);
  });
});

describe('launcher script', () => {
  it('uses absolute node and entry, bakes in the home, and survives spaces and quotes (sh)', () => {
    const home = path.join(tmp, `it's a "home" $HOME`);
    const script = launcherScript({
      nodePath: process.execPath,
      nodeFlags: HOST_NODE_FLAGS,
      entry: path.join(tmp, "entry with 'quote'.js"),
      home,
      windows: false,
    });
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    // Run it for real with a fake entry that prints what it received.
    const entry = path.join(tmp, "entry with 'quote'.js");
    fs.writeFileSync(
      entry,
      'process.stdout.write(JSON.stringify({home: process.env.XIPE_UIUX_HOME, argv: process.argv.slice(2), execArgv: process.execArgv}))',
    );
    const launcher = path.join(tmp, 'launcher');
    fs.writeFileSync(launcher, script, { mode: 0o755 });
    const out = execFileSync(launcher, ['chrome-extension://x/'], { env: {}, cwd: '/' }).toString();
    expect(JSON.parse(out)).toEqual({
      home,
      argv: ['host', 'chrome-extension://x/'],
      execArgv: [...HOST_NODE_FLAGS],
    });
  });

  it('quotes paths for cmd.exe and doubles %', () => {
    const script = launcherScript({
      nodePath: 'C:\\Program Files\\nodejs\\node.exe',
      nodeFlags: ['--max-semi-space-size=1'],
      entry: 'C:\\Users\\A B\\100%\\bin\\x-ipe-uiux.js',
      home: 'C:\\Users\\A B\\AppData\\Roaming\\x-ipe-uiux',
      windows: true,
    });
    expect(script).toBe(
      [
        '@echo off',
        'rem Written by x-ipe-uiux install: starts the native-messaging host.',
        'set "XIPE_UIUX_HOME=C:\\Users\\A B\\AppData\\Roaming\\x-ipe-uiux"',
        `"C:\\Program Files\\nodejs\\node.exe" --max-semi-space-size=1 "C:\\Users\\A B\\100%%\\bin\\x-ipe-uiux.js" host %*`,
        '',
      ].join('\r\n'),
    );
  });
});

describe('acceptedNodeFlags', () => {
  it('keeps every flag this node accepts and drops the ones it would refuse to start with', () => {
    expect(acceptedNodeFlags(process.execPath, HOST_NODE_FLAGS)).toEqual([...HOST_NODE_FLAGS]);
    expect(acceptedNodeFlags(process.execPath, ['--max-semi-space-size=1', '--no-such-v8-flag'])).toEqual([
      '--max-semi-space-size=1',
    ]);
  });

  it('passes no flags to a node that cannot be run', () => {
    expect(acceptedNodeFlags(path.join(tmp, 'no-node'), HOST_NODE_FLAGS)).toEqual([]);
  });
});
