import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '../../shared/src/constants.js';
import { registerWorkspace } from '../../shared/src/node/config.js';
import { binDir, xipeHome } from '../../shared/src/node/paths.js';
import { ensureToken, readToken } from '../../shared/src/node/token.js';
import { parseArgs, stringFlag, UsageError } from './args.js';
import {
  BROWSERS,
  type BrowserName,
  executableCandidates,
  isBrowserName,
  nativeHostsDir,
  type PlatformEnv,
  registryKey,
  userDataDir,
} from './browsers.js';
import { cliEntry } from './package-root.js';

/** Windows keeps host registrations in HKCU; kept behind a seam so it is testable anywhere. */
export interface RegistrySeam {
  setDefault(key: string, value: string): void;
  deleteKey(key: string): void;
}

export const windowsRegistry: RegistrySeam = {
  setDefault(key, value) {
    execFileSync('reg', ['add', key, '/ve', '/t', 'REG_SZ', '/d', value, '/f'], { stdio: 'ignore' });
  },
  deleteKey(key) {
    try {
      execFileSync('reg', ['delete', key, '/f'], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  },
};

/** What install wrote, so uninstall removes exactly that and nothing else. */
interface InstallRecord {
  launcher: string | null;
  manifests: string[];
  registry: string[];
}

export interface InstallOptions {
  browser: BrowserName | 'all';
  userDataDir?: string;
  workspace?: string;
  home: string;
  platform: PlatformEnv;
  nodePath: string;
  entry: string;
  registry: RegistrySeam;
  /** Which browsers exist on this machine (for `all`). */
  browserPresent: (browser: BrowserName) => boolean;
}

export interface InstallReport {
  launcher: string;
  manifests: string[];
  registry: string[];
  token: string;
  tokenCreated: boolean;
  workspace: string | null;
  notes: string[];
}

const recordPath = (home: string): string => path.join(home, 'install-record.json');

function readRecord(home: string): InstallRecord {
  try {
    const raw = JSON.parse(fs.readFileSync(recordPath(home), 'utf8')) as Partial<InstallRecord>;
    return {
      launcher: typeof raw.launcher === 'string' ? raw.launcher : null,
      manifests: Array.isArray(raw.manifests) ? raw.manifests.filter((m) => typeof m === 'string') : [],
      registry: Array.isArray(raw.registry) ? raw.registry.filter((r) => typeof r === 'string') : [],
    };
  } catch {
    return { launcher: null, manifests: [], registry: [] };
  }
}

function writeFileAtomic(file: string, content: string, mode: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode });
  fs.chmodSync(tmp, mode);
  fs.renameSync(tmp, file);
}

const shellQuote = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`;

/**
 * The browser starts the host with a minimal environment and its own cwd, so the launcher names
 * Node and the entry file by absolute path and bakes in the home directory.
 */
export function launcherScript(o: {
  nodePath: string;
  entry: string;
  home: string;
  windows: boolean;
}): string {
  if (o.windows) {
    return `@echo off\r\nrem Written by x-ipe-uiux install: starts the native-messaging host.\r\nset "XIPE_UIUX_HOME=${o.home}"\r\n"${o.nodePath}" "${o.entry}" host %*\r\n`;
  }
  return `#!/bin/sh\n# Written by x-ipe-uiux install: starts the native-messaging host.\nexport XIPE_UIUX_HOME=${shellQuote(o.home)}\nexec ${shellQuote(o.nodePath)} ${shellQuote(o.entry)} host "$@"\n`;
}

export function hostManifest(launcher: string): Record<string, unknown> {
  return {
    name: NATIVE_HOST_NAME,
    description: 'X-IPE UI/UX Reference native host (writes idea folders, relays MCP calls)',
    path: launcher,
    type: 'stdio',
    allowed_origins: [EXTENSION_ORIGIN],
  };
}

export function install(o: InstallOptions): InstallReport {
  const windows = o.platform.platform === 'win32';
  const notes: string[] = [];
  fs.mkdirSync(o.home, { recursive: true, mode: 0o700 });
  const hadToken = readToken(o.home) !== null;
  const token = ensureToken(o.home);

  const launcher = path.join(binDir(o.home), windows ? 'x-ipe-uiux-host.bat' : 'x-ipe-uiux-host');
  writeFileAtomic(
    launcher,
    launcherScript({ nodePath: o.nodePath, entry: o.entry, home: o.home, windows }),
    0o755,
  );

  const record = readRecord(o.home);
  record.launcher = launcher;
  const manifestJson = `${JSON.stringify(hostManifest(launcher), null, 2)}\n`;
  const manifests: string[] = [];
  const registry: string[] = [];
  const manifestName = `${NATIVE_HOST_NAME}.json`;

  if (o.userDataDir !== undefined) {
    const file = path.join(path.resolve(o.userDataDir), 'NativeMessagingHosts', manifestName);
    writeFileAtomic(file, manifestJson, 0o644);
    manifests.push(file);
  } else {
    let targets: BrowserName[] = o.browser === 'all' ? BROWSERS.filter(o.browserPresent) : [o.browser];
    if (targets.length === 0) {
      targets = ['chrome', 'chromium'];
      notes.push('No browser was detected; registered for Chrome and Chromium so a later install works.');
    }
    for (const browser of targets) {
      if (windows) {
        const file = path.join(o.home, 'manifests', `${browser}-${manifestName}`);
        writeFileAtomic(file, manifestJson, 0o644);
        manifests.push(file);
        const key = registryKey(browser, NATIVE_HOST_NAME);
        o.registry.setDefault(key, file);
        registry.push(key);
      } else {
        const dir = nativeHostsDir(browser, o.platform);
        if (dir === null) continue;
        const file = path.join(dir, manifestName);
        writeFileAtomic(file, manifestJson, 0o644);
        manifests.push(file);
      }
    }
  }
  record.manifests = [...new Set([...record.manifests, ...manifests])];
  record.registry = [...new Set([...record.registry, ...registry])];
  writeFileAtomic(recordPath(o.home), `${JSON.stringify(record, null, 2)}\n`, 0o600);

  let workspace: string | null = null;
  if (o.workspace !== undefined) {
    workspace = path.resolve(o.workspace);
    registerWorkspace(o.home, workspace);
    if (!fs.existsSync(path.join(workspace, 'x-ipe-docs', 'ideas'))) {
      notes.push(`${workspace} has no x-ipe-docs/ideas folder yet; create idea folders there before saving.`);
    }
  }
  return { launcher, manifests, registry, token, tokenCreated: !hadToken, workspace, notes };
}

export interface UninstallReport {
  removed: string[];
  registryRemoved: string[];
}

/** Removes exactly what install recorded (optionally only one user-data-dir's manifest). */
export function uninstall(o: {
  home: string;
  userDataDir?: string;
  registry: RegistrySeam;
}): UninstallReport {
  const record = readRecord(o.home);
  const removed: string[] = [];
  const registryRemoved: string[] = [];
  const removeFile = (file: string): void => {
    try {
      fs.unlinkSync(file);
      removed.push(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  };
  if (o.userDataDir !== undefined) {
    const file = path.join(path.resolve(o.userDataDir), 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.json`);
    if (record.manifests.includes(file)) removeFile(file);
    record.manifests = record.manifests.filter((m) => m !== file);
    writeFileAtomic(recordPath(o.home), `${JSON.stringify(record, null, 2)}\n`, 0o600);
    return { removed, registryRemoved };
  }
  for (const file of record.manifests) removeFile(file);
  for (const key of record.registry) {
    o.registry.deleteKey(key);
    registryRemoved.push(key);
  }
  if (record.launcher !== null) removeFile(record.launcher);
  removeFile(recordPath(o.home));
  return { removed, registryRemoved };
}

export function currentPlatform(): PlatformEnv {
  return { platform: process.platform, home: os.homedir(), env: process.env };
}

export function browserPresentOn(p: PlatformEnv): (browser: BrowserName) => boolean {
  return (browser) => {
    const dir = userDataDir(browser, p);
    if (dir !== null && fs.existsSync(dir)) return true;
    return executableCandidates(browser, p).some((exe) => fs.existsSync(exe));
  };
}

export async function runInstall(argv: string[]): Promise<number> {
  try {
    const args = parseArgs(argv, { values: ['browser', 'user-data-dir', 'workspace'] });
    const browser = stringFlag(args, 'browser') ?? 'all';
    if (browser !== 'all' && !isBrowserName(browser)) {
      throw new UsageError(`--browser must be one of ${BROWSERS.join(', ')} or all (got '${browser}')`);
    }
    const platform = currentPlatform();
    const userDataDirFlag = stringFlag(args, 'user-data-dir');
    const workspaceFlag = stringFlag(args, 'workspace');
    const report = install({
      browser,
      ...(userDataDirFlag !== undefined ? { userDataDir: userDataDirFlag } : {}),
      ...(workspaceFlag !== undefined ? { workspace: workspaceFlag } : {}),
      home: xipeHome(),
      platform,
      nodePath: process.execPath,
      entry: cliEntry(),
      registry: windowsRegistry,
      browserPresent: browserPresentOn(platform),
    });
    const out = process.stdout;
    out.write(`Installed the native host ${NATIVE_HOST_NAME}\n`);
    out.write(`  launcher:  ${report.launcher}\n`);
    for (const m of report.manifests) out.write(`  manifest:  ${m}\n`);
    for (const k of report.registry) out.write(`  registry:  ${k}\n`);
    out.write(
      `  token:     ${report.tokenCreated ? 'created' : 'kept'} (${path.join(xipeHome(), 'token')})\n`,
    );
    if (report.workspace !== null) out.write(`  workspace: ${report.workspace}\n`);
    for (const note of report.notes) out.write(`  note: ${note}\n`);
    out.write('Next: load the extension (dist/extension) in the browser, then run `x-ipe-uiux doctor`.\n');
    return 0;
  } catch (err) {
    process.stderr.write(`x-ipe-uiux install: ${(err as Error).message}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}

export async function runUninstall(argv: string[]): Promise<number> {
  try {
    const args = parseArgs(argv, { values: ['browser', 'user-data-dir'] });
    const userDataDirFlag = stringFlag(args, 'user-data-dir');
    const report = uninstall({
      home: xipeHome(),
      registry: windowsRegistry,
      ...(userDataDirFlag !== undefined ? { userDataDir: userDataDirFlag } : {}),
    });
    if (report.removed.length === 0 && report.registryRemoved.length === 0) {
      process.stdout.write('Nothing to remove: no recorded installation.\n');
    }
    for (const f of report.removed) process.stdout.write(`removed ${f}\n`);
    for (const k of report.registryRemoved) process.stdout.write(`removed registry key ${k}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`x-ipe-uiux uninstall: ${(err as Error).message}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}
