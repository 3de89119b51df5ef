import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NATIVE_HOST_NAME } from '#shared/constants.js';
import { INSTALL_COMMAND, UNINSTALL_COMMAND } from '#shared/node/cli-commands.js';
import { argsOrExit, UsageError } from '#shared/node/command-line.js';
import { registerWorkspace } from '#shared/node/config.js';
import { xipeHome } from '#shared/node/paths.js';
import { ensureToken, readToken } from '#shared/node/token.js';
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
import { hostManifest, launcherPath, launcherScript } from './host-launcher.js';
import {
  type InstallEntry,
  installRecordPath,
  readInstallRecord,
  writeFileAtomic,
  writeRecord,
} from './install-record.js';
import { acceptedNodeFlags, HOST_NODE_FLAGS } from './node-flags.js';
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

export interface InstallOptions {
  browser: BrowserName | 'all';
  userDataDir?: string;
  workspace?: string;
  home: string;
  platform: PlatformEnv;
  nodePath: string;
  /** Node flags for the host (see node-flags.ts); none when absent. */
  nodeFlags?: readonly string[];
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

const MANIFEST_NAME = `${NATIVE_HOST_NAME}.json`;

/** Where `--user-data-dir DIR` puts the manifest (Chromium reads `<DIR>/NativeMessagingHosts/`). */
export const userDataDirManifest = (dir: string): string =>
  path.join(path.resolve(dir), 'NativeMessagingHosts', MANIFEST_NAME);

export function install(o: InstallOptions): InstallReport {
  const windows = o.platform.platform === 'win32';
  const notes: string[] = [];
  fs.mkdirSync(o.home, { recursive: true, mode: 0o700 });
  // A loose token mode is repaired with a warning on stderr; another user's token file throws.
  const tokenOptions = { platform: o.platform.platform };
  const hadToken = readToken(o.home, tokenOptions) !== null;
  const token = ensureToken(o.home, tokenOptions);

  const launcher = launcherPath(o.home, windows);
  writeFileAtomic(
    launcher,
    launcherScript({
      nodePath: o.nodePath,
      ...(o.nodeFlags !== undefined ? { nodeFlags: o.nodeFlags } : {}),
      entry: o.entry,
      home: o.home,
      windows,
    }),
    0o755,
  );

  const manifestJson = `${JSON.stringify(hostManifest(launcher), null, 2)}\n`;
  const written: InstallEntry[] = [];

  if (o.userDataDir !== undefined) {
    const manifest = userDataDirManifest(o.userDataDir);
    writeFileAtomic(manifest, manifestJson, 0o644);
    written.push({ target: 'user-data-dir', manifest, user_data_dir: path.resolve(o.userDataDir) });
  } else {
    let targets: BrowserName[] = o.browser === 'all' ? BROWSERS.filter(o.browserPresent) : [o.browser];
    if (targets.length === 0) {
      targets = ['chrome', 'chromium'];
      notes.push('No browser was detected; registered for Chrome and Chromium so a later install works.');
    }
    for (const browser of targets) {
      if (windows) {
        const manifest = path.join(o.home, 'manifests', `${browser}-${MANIFEST_NAME}`);
        writeFileAtomic(manifest, manifestJson, 0o644);
        const key = registryKey(browser, NATIVE_HOST_NAME);
        o.registry.setDefault(key, manifest);
        written.push({ target: browser, manifest, registry_key: key });
      } else {
        const dir = nativeHostsDir(browser, o.platform);
        if (dir === null) continue;
        const manifest = path.join(dir, MANIFEST_NAME);
        writeFileAtomic(manifest, manifestJson, 0o644);
        written.push({ target: browser, manifest });
      }
    }
  }
  const record = readInstallRecord(o.home);
  const rewritten = new Set(written.map((e) => e.manifest));
  writeRecord(o.home, {
    launcher,
    entries: [...record.entries.filter((e) => !rewritten.has(e.manifest)), ...written],
  });

  let workspace: string | null = null;
  if (o.workspace !== undefined) {
    workspace = path.resolve(o.workspace);
    registerWorkspace(o.home, workspace);
    if (!fs.existsSync(path.join(workspace, 'x-ipe-docs', 'ideas'))) {
      notes.push(`${workspace} has no x-ipe-docs/ideas folder yet; create idea folders there before saving.`);
    }
  }
  return {
    launcher,
    manifests: written.map((e) => e.manifest),
    registry: written.flatMap((e) => (e.registry_key === undefined ? [] : [e.registry_key])),
    token,
    tokenCreated: !hadToken,
    workspace,
    notes,
  };
}

export interface UninstallReport {
  removed: string[];
  registryRemoved: string[];
}

/**
 * Removes exactly what install recorded: everything, or only one browser's or one user-data-dir's
 * registration. The launcher and the record go only when no registration is left.
 */
export function uninstall(o: {
  home: string;
  browser?: BrowserName | 'all';
  userDataDir?: string;
  registry: RegistrySeam;
}): UninstallReport {
  const record = readInstallRecord(o.home);
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
  const selected = (e: InstallEntry): boolean => {
    if (o.userDataDir !== undefined) return e.manifest === userDataDirManifest(o.userDataDir);
    if (o.browser !== undefined && o.browser !== 'all') return e.target === o.browser;
    return true;
  };
  const remaining: InstallEntry[] = [];
  for (const entry of record.entries) {
    if (!selected(entry)) {
      remaining.push(entry);
      continue;
    }
    removeFile(entry.manifest);
    if (entry.registry_key !== undefined) {
      o.registry.deleteKey(entry.registry_key);
      registryRemoved.push(entry.registry_key);
    }
  }
  if (remaining.length > 0) {
    writeRecord(o.home, { launcher: record.launcher, entries: remaining });
  } else {
    if (record.launcher !== null) removeFile(record.launcher);
    removeFile(installRecordPath(o.home));
  }
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

function parseBrowserFlag(value: string | undefined): BrowserName | 'all' {
  const browser = value ?? 'all';
  if (browser !== 'all' && !isBrowserName(browser)) {
    throw new UsageError(`--browser must be one of ${BROWSERS.join(', ')} or all (got '${browser}')`);
  }
  return browser;
}

export async function runInstall(argv: string[]): Promise<number> {
  const args = argsOrExit(INSTALL_COMMAND, argv);
  if (typeof args === 'number') return args;
  try {
    const browser = parseBrowserFlag(args.values.browser);
    const platform = currentPlatform();
    const userDataDirFlag = args.values['user-data-dir'];
    const workspaceFlag = args.values.workspace;
    const report = install({
      browser,
      ...(userDataDirFlag !== undefined ? { userDataDir: userDataDirFlag } : {}),
      ...(workspaceFlag !== undefined ? { workspace: workspaceFlag } : {}),
      home: xipeHome(),
      platform,
      nodePath: process.execPath,
      nodeFlags: acceptedNodeFlags(process.execPath, HOST_NODE_FLAGS),
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
  const args = argsOrExit(UNINSTALL_COMMAND, argv);
  if (typeof args === 'number') return args;
  try {
    const browser = parseBrowserFlag(args.values.browser);
    const userDataDirFlag = args.values['user-data-dir'];
    const report = uninstall({
      home: xipeHome(),
      registry: windowsRegistry,
      browser,
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
