import fs from 'node:fs';
import path from 'node:path';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '#shared/constants.js';
import { BROWSERS, nativeHostsDir } from '../browsers.js';
import { readInstallRecord } from '../install-record.js';
import type { CheckResult, DoctorDeps } from './types.js';

/**
 * doctor's host-manifest check: every registration it can find (this home's install record, and
 * each browser's user-level folder), each manifest's fields, its launcher, and what the launcher
 * runs — Node, the entry file and the XIPE_UIUX_HOME it gives the host.
 */

/** The node and entry paths a launcher we wrote execs (sh or cmd), or null when it is not ours. */
export function launcherTargets(script: string): { node: string; entry: string } | null {
  // Node flags (unquoted `--name=value` words) may sit between node and the entry.
  const sh = /^exec '((?:[^']|'\\'')*)'(?: --[\w=.-]+)* '((?:[^']|'\\'')*)' host/m.exec(script);
  if (sh?.[1] !== undefined && sh[2] !== undefined) {
    return { node: sh[1].replaceAll("'\\''", "'"), entry: sh[2].replaceAll("'\\''", "'") };
  }
  const cmd = /^"([^"]+)"(?: --[\w=.-]+)* "([^"]+)" host/m.exec(script);
  if (cmd?.[1] !== undefined && cmd[2] !== undefined) {
    return { node: cmd[1].replaceAll('%%', '%'), entry: cmd[2].replaceAll('%%', '%') };
  }
  return null;
}

/** The XIPE_UIUX_HOME a launcher we wrote sets (sh or cmd), or null when it sets none. */
export function launcherHome(script: string): string | null {
  const sh = /^XIPE_UIUX_HOME='((?:[^']|'\\'')*)'$/m.exec(script);
  if (sh?.[1] !== undefined) return sh[1].replaceAll("'\\''", "'");
  const cmd = /^set "XIPE_UIUX_HOME=([^"]*)"/m.exec(script);
  return cmd?.[1] !== undefined ? cmd[1].replaceAll('%%', '%') : null;
}

/** The home a manifest's launcher gives the host, when it is readable and sets one. */
function manifestHome(file: string): string | null {
  try {
    const launcher = (JSON.parse(fs.readFileSync(file, 'utf8')) as { path?: unknown }).path;
    return typeof launcher === 'string' ? launcherHome(fs.readFileSync(launcher, 'utf8')) : null;
  } catch {
    return null;
  }
}

/** Problems with one host manifest file; empty when it is valid. */
export function manifestProblems(file: string, windows: boolean): string[] {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    return [(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'not valid JSON'];
  }
  const problems: string[] = [];
  if (m.name !== NATIVE_HOST_NAME)
    problems.push(`name is ${JSON.stringify(m.name)}, not ${NATIVE_HOST_NAME}`);
  if (m.type !== 'stdio') problems.push('type is not "stdio"');
  const origins = Array.isArray(m.allowed_origins) ? m.allowed_origins : [];
  if (!origins.includes(EXTENSION_ORIGIN)) {
    problems.push(
      `allowed_origins ${JSON.stringify(m.allowed_origins)} does not contain ${EXTENSION_ORIGIN}`,
    );
  }
  const launcher = m.path;
  if (typeof launcher !== 'string' || !path.isAbsolute(launcher)) {
    problems.push(`path ${JSON.stringify(launcher)} is not absolute`);
    return problems;
  }
  try {
    fs.accessSync(launcher, windows ? fs.constants.R_OK : fs.constants.X_OK);
  } catch {
    problems.push(`launcher ${launcher} ${fs.existsSync(launcher) ? 'is not executable' : 'does not exist'}`);
    return problems;
  }
  const targets = launcherTargets(fs.readFileSync(launcher, 'utf8'));
  if (targets !== null) {
    if (!fs.existsSync(targets.node)) problems.push(`launcher's node ${targets.node} does not exist`);
    if (!fs.existsSync(targets.entry)) problems.push(`launcher's entry ${targets.entry} does not exist`);
  }
  return problems;
}

export function checkHostManifests(deps: DoctorDeps): CheckResult {
  const title = 'host manifest present and valid';
  const windows = deps.platform.platform === 'win32';
  const record = readInstallRecord(deps.home);
  const files = new Map<string, string>();
  for (const e of record.entries)
    files.set(e.manifest, e.user_data_dir === undefined ? e.target : `profile ${e.user_data_dir}`);
  for (const b of BROWSERS) {
    const dir = nativeHostsDir(b, deps.platform);
    const file = dir === null ? null : path.join(dir, `${NATIVE_HOST_NAME}.json`);
    if (file !== null && !files.has(file) && fs.existsSync(file)) files.set(file, b);
  }
  if (files.size === 0) {
    return {
      id: 'host_manifest',
      title,
      status: 'fail',
      detail: `no ${NATIVE_HOST_NAME}.json registered for any browser or profile`,
      fix: 'Run `x-ipe-uiux install` (your own Chrome/Chromium) or `x-ipe-uiux start` (registers its own profile).',
    };
  }
  const broken: string[] = [];
  const good: string[] = [];
  const otherHomes = new Set<string>();
  for (const [file, label] of files) {
    const problems = manifestProblems(file, windows);
    // A host started with another home has another token and runtime dir: nothing run from this
    // shell (mcp, doctor, start) can reach it, though every file looks fine.
    const home = manifestHome(file);
    if (home !== null && path.resolve(home) !== path.resolve(deps.home)) {
      problems.push(`its launcher sets XIPE_UIUX_HOME=${home}, this shell uses ${deps.home}`);
      otherHomes.add(home);
    }
    if (problems.length === 0) good.push(label);
    else broken.push(`${file} (${label}): ${problems.join('; ')}`);
  }
  if (otherHomes.size > 0) {
    const [other] = otherHomes;
    return {
      id: 'host_manifest',
      title,
      status: 'fail',
      detail: broken.join(' | '),
      fix:
        `Use one XIPE_UIUX_HOME everywhere: \`export XIPE_UIUX_HOME='${other}'\` in this shell (and in your agent's MCP config), ` +
        'or run `x-ipe-uiux install` from this shell to register the host with its home.',
    };
  }
  if (broken.length > 0) {
    return {
      id: 'host_manifest',
      title,
      status: 'fail',
      detail: broken.join(' | '),
      fix: 'Run `x-ipe-uiux install` again (add `--user-data-dir DIR` for a profile) to rewrite the manifest and launcher.',
    };
  }
  return { id: 'host_manifest', title, status: 'ok', detail: `registered for ${good.join(', ')}` };
}
