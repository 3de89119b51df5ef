import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { EXTENSION_ID } from '../../shared/src/constants.js';
import type { HostInfo } from '../../shared/src/envelopes.js';
import { scanRuntimeDir } from '../../shared/src/node/bridge/discovery.js';
import { type ProbeOutcome, probeHost } from '../../shared/src/node/bridge/probe.js';
import { DOCTOR_COMMAND } from '../../shared/src/node/cli-commands.js';
import { argsOrExit } from '../../shared/src/node/command-line.js';
import { loadConfig } from '../../shared/src/node/config.js';
import type { EndpointDescriptor } from '../../shared/src/node/endpoint-descriptor.js';
import { tokenPath, xipeHome } from '../../shared/src/node/paths.js';
import { tokenFileProblem } from '../../shared/src/node/token.js';
import type { PlatformEnv } from './browsers.js';
import { checkHostManifests } from './doctor-host-manifest.js';
import { BRANDED_CHROME_EXPLANATION, type BrowserSearch, findBrowser } from './find-browser.js';
import { currentPlatform } from './install.js';
import { extensionDist } from './package-root.js';

/**
 * `x-ipe-uiux doctor`: checks every link from browser to workspace, in the order data flows, and
 * gives one fix per failure. Every check is a plain function over injected deps so tests can
 * break one link at a time.
 */

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  id:
    | 'browser'
    | 'extension_built'
    | 'host_manifest'
    | 'token'
    | 'bridge'
    | 'extension_connected'
    | 'user_scripts'
    | 'workspace';
  title: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

export interface DoctorReport {
  ok: boolean;
  home: string;
  workspace: string;
  checks: CheckResult[];
}

export interface DoctorDeps {
  home: string;
  workspace: string;
  platform: PlatformEnv;
  extensionDir: string;
  findBrowser: () => BrowserSearch;
  probe: (descriptor: EndpointDescriptor, token: string) => Promise<ProbeOutcome>;
  uid?: number;
}

export const ALLOW_USER_SCRIPTS_FIX =
  'Open chrome://extensions → X-IPE UI/UX Reference → Details → turn on "Allow User Scripts" ' +
  '(`x-ipe-uiux start` turns it on in its own profile).';

/** Chrome derives an extension's ID from its public key: sha256, first 32 hex digits mapped to a–p. */
export function extensionIdFromKey(key: string): string {
  const hex = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + Number.parseInt(c, 16))).join('');
}

function checkBrowser(search: BrowserSearch): CheckResult {
  const title = 'browser found';
  if (search.found !== null) {
    const f = search.found;
    return {
      id: 'browser',
      title,
      status: 'ok',
      detail: `${f.path} (${f.version ?? f.kind}, from ${f.source})`,
    };
  }
  const branded = search.rejected.find((r) => r.candidate.kind === 'chrome');
  if (branded !== undefined) {
    return {
      id: 'browser',
      title,
      status: 'warn',
      detail: `only Google Chrome found (${branded.candidate.path}, ${branded.candidate.version ?? 'unknown version'}), which ignores --load-extension`,
      fix: BRANDED_CHROME_EXPLANATION,
    };
  }
  const rejected = search.rejected.map((r) => r.reason).join('; ');
  return {
    id: 'browser',
    title,
    status: 'fail',
    detail: `no Chromium-based browser that honours --load-extension${rejected === '' ? '' : ` (${rejected})`}; looked at ${search.looked.join(', ')}`,
    fix: 'Install Chromium (Debian/Ubuntu: `apt install chromium`; macOS: `brew install --cask chromium`) or Chrome for Testing, or set CHROME_PATH to its executable.',
  };
}

function checkExtensionBuilt(dir: string): CheckResult {
  const title = 'extension built';
  const file = path.join(dir, 'manifest.json');
  const fix = 'Run `npm run build` in the x-ipe-uiux-reference package (it writes dist/extension).';
  let manifest: { key?: unknown; version?: unknown };
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof manifest;
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      id: 'extension_built',
      title,
      status: 'fail',
      detail: `${file} ${missing ? 'is missing' : 'is not valid JSON'}`,
      fix,
    };
  }
  if (typeof manifest.key !== 'string') {
    return {
      id: 'extension_built',
      title,
      status: 'fail',
      detail: `${file} has no "key", so its ID is not pinned`,
      fix,
    };
  }
  const id = extensionIdFromKey(manifest.key);
  if (id !== EXTENSION_ID) {
    return {
      id: 'extension_built',
      title,
      status: 'fail',
      detail: `${file} has a key for ID ${id}, not the pinned ${EXTENSION_ID}; host manifests would not allow it`,
      fix,
    };
  }
  return {
    id: 'extension_built',
    title,
    status: 'ok',
    detail: `${dir} (version ${String(manifest.version)}, ID ${id})`,
  };
}

function checkToken(deps: DoctorDeps): CheckResult {
  const title = 'token present with safe permissions';
  const file = tokenPath(deps.home);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return {
      id: 'token',
      title,
      status: 'fail',
      detail: `${file} is missing`,
      fix: 'Run `x-ipe-uiux install` (it creates the token).',
    };
  }
  if (fs.readFileSync(file, 'utf8').trim() === '') {
    return {
      id: 'token',
      title,
      status: 'fail',
      detail: `${file} is empty`,
      fix: `Delete ${file} and run \`x-ipe-uiux install\`.`,
    };
  }
  if (deps.platform.platform !== 'win32') {
    const uid = deps.uid ?? (typeof process.getuid === 'function' ? process.getuid() : stat.uid);
    // The same rule the host and the MCP server apply when they read the token.
    const problem = tokenFileProblem(stat, uid);
    if (problem?.kind === 'foreign-owner') {
      return {
        id: 'token',
        title,
        status: 'fail',
        detail: `${file} is owned by uid ${problem.owner}, not ${uid}: the host and the MCP server refuse it`,
        fix: `Delete ${file} (as its owner) and run \`x-ipe-uiux install\` as yourself.`,
      };
    }
    if (problem?.kind === 'loose-mode') {
      return {
        id: 'token',
        title,
        status: 'fail',
        detail:
          `${file} is readable by others (mode ${problem.mode.toString(8)}); the host and the MCP server ` +
          'reset it to 0600 when they next read it',
        fix: `chmod 600 '${file}'`,
      };
    }
  }
  return { id: 'token', title, status: 'ok', detail: `${file} (0600)` };
}

interface BridgeState {
  hosts: HostInfo[];
}

async function checkBridge(deps: DoctorDeps, state: BridgeState): Promise<CheckResult> {
  const title = 'bridge endpoint reachable';
  const scan = await scanRuntimeDir(deps.home);
  if (scan.refused !== null) {
    // The same checks the MCP server applies: it would refuse this folder too.
    return {
      id: 'bridge',
      title,
      status: 'fail',
      detail: scan.refused.message,
      fix: `If ${scan.dir} is yours, \`chmod 700 '${scan.dir}'\`; otherwise (another owner, a symlink, a file) remove it as its owner. Then reload the extension so the host makes a new one.`,
    };
  }
  if (scan.live.length === 0) {
    return {
      id: 'bridge',
      title,
      status: 'fail',
      detail: `no live native host in ${scan.dir}${scan.stale.length > 0 ? ` (${scan.stale.length} stale descriptor(s))` : ''}${scan.unusable.length > 0 ? `; refused: ${scan.unusable.map((e) => e.message).join(' | ')}` : ''}`,
      fix:
        'The browser starts the host when the extension connects: run `x-ipe-uiux start`, or open your browser with the ' +
        'extension loaded (if it is open, reload the extension on chrome://extensions and check its service worker console).',
    };
  }
  let token = '';
  try {
    token = fs.readFileSync(tokenPath(deps.home), 'utf8').trim();
  } catch {
    // reported by the token check; the hello below fails with UNAUTHORIZED
  }
  const errors: string[] = [];
  for (const descriptor of scan.live) {
    const outcome = await deps.probe(descriptor, token);
    if (outcome.ok) state.hosts.push(outcome.host);
    else errors.push(`host pid ${descriptor.pid}: ${outcome.error.code}: ${outcome.error.message}`);
  }
  if (state.hosts.length === 0) {
    const unauthorized = errors.some((e) => e.includes('UNAUTHORIZED'));
    return {
      id: 'bridge',
      title,
      status: 'fail',
      detail: errors.join(' | '),
      fix: unauthorized
        ? `The host uses a different token: make sure XIPE_UIUX_HOME is the same for the host (launcher) and this shell (${deps.home}), then run \`x-ipe-uiux install\` and reload the extension.`
        : 'Reload the extension on chrome://extensions (the host restarts with it); see the host log in <home>/logs.',
    };
  }
  const pids = state.hosts.map((h) => h.pid).join(', ');
  return {
    id: 'bridge',
    title,
    status: 'ok',
    detail: `${state.hosts.length} host(s) answered the hello (pid ${pids})${errors.length > 0 ? `; ${errors.join(' | ')}` : ''}`,
  };
}

function checkExtensionConnected(state: BridgeState): CheckResult {
  const title = 'extension connected';
  if (state.hosts.length === 0) {
    return { id: 'extension_connected', title, status: 'skip', detail: 'no reachable host to ask' };
  }
  const connected = state.hosts.filter((h) => h.extension_connected);
  if (connected.length === 0) {
    return {
      id: 'extension_connected',
      title,
      status: 'fail',
      detail: `host(s) ${state.hosts.map((h) => h.pid).join(', ')} running but no extension attached`,
      fix: 'Open chrome://extensions, make sure X-IPE UI/UX Reference is enabled, and click its reload button.',
    };
  }
  const browsers = connected.map((h) =>
    `${h.extension?.browser.name ?? '?'} ${h.extension?.browser.version ?? ''}`.trim(),
  );
  return { id: 'extension_connected', title, status: 'ok', detail: browsers.join(', ') };
}

function checkUserScripts(state: BridgeState): CheckResult {
  const title = 'user scripts allowed';
  const withExtension = state.hosts.filter((h) => h.extension !== null && h.extension_connected);
  if (withExtension.length === 0) {
    return { id: 'user_scripts', title, status: 'skip', detail: 'no connected extension to ask' };
  }
  const off = withExtension.filter((h) => h.extension?.user_scripts_allowed !== true);
  if (off.length > 0) {
    return {
      id: 'user_scripts',
      title,
      status: 'fail',
      detail: `"Allow User Scripts" is off in ${off.map((h) => h.extension?.browser.browser_id ?? `host ${h.pid}`).join(', ')}; inject_script is blocked on pages with a strict CSP`,
      fix: ALLOW_USER_SCRIPTS_FIX,
    };
  }
  return { id: 'user_scripts', title, status: 'ok', detail: 'chrome.userScripts is available' };
}

function checkWorkspace(deps: DoctorDeps): CheckResult {
  const title = 'workspace has x-ipe-docs/ideas';
  const ideas = path.join(deps.workspace, 'x-ipe-docs', 'ideas');
  let folders: string[];
  try {
    folders = fs
      .readdirSync(ideas, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return {
      id: 'workspace',
      title,
      status: 'fail',
      detail: `${ideas} does not exist`,
      fix: `Run doctor in your project (or pass --workspace DIR), or create an idea folder: mkdir -p '${path.join(ideas, '001. My Idea')}'`,
    };
  }
  let registered = true;
  try {
    registered = loadConfig(deps.home).workspaces.includes(path.resolve(deps.workspace));
  } catch {
    registered = false;
  }
  const note = registered
    ? ''
    : '; not registered for the toolbar yet (`x-ipe-uiux install --workspace DIR` adds it)';
  if (folders.length === 0) {
    return {
      id: 'workspace',
      title,
      status: 'warn',
      detail: `${ideas} has no idea folders${note}`,
      fix: `mkdir -p '${path.join(ideas, '001. My Idea')}'`,
    };
  }
  return {
    id: 'workspace',
    title,
    status: 'ok',
    detail: `${ideas} (${folders.length} idea folder(s))${note}`,
  };
}

export async function runChecks(deps: DoctorDeps): Promise<DoctorReport> {
  const state: BridgeState = { hosts: [] };
  const checks: CheckResult[] = [
    checkBrowser(deps.findBrowser()),
    checkExtensionBuilt(deps.extensionDir),
    checkHostManifests(deps),
    checkToken(deps),
    await checkBridge(deps, state),
    checkExtensionConnected(state),
    checkUserScripts(state),
    checkWorkspace(deps),
  ];
  return { ok: checks.every((c) => c.status !== 'fail'), home: deps.home, workspace: deps.workspace, checks };
}

const MARK: Record<CheckStatus, string> = { ok: ' ok ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

export function formatReport(report: DoctorReport): string {
  const lines = [`x-ipe-uiux doctor (home ${report.home}, workspace ${report.workspace})`];
  for (const c of report.checks) {
    lines.push(`[${MARK[c.status]}] ${c.title}: ${c.detail}`);
    if (c.fix !== undefined && (c.status === 'fail' || c.status === 'warn'))
      lines.push(`       fix: ${c.fix}`);
  }
  lines.push(
    report.ok ? 'All links are fine.' : 'Something is broken: follow the fix lines above, top first.',
  );
  return `${lines.join('\n')}\n`;
}

export function defaultDoctorDeps(workspace: string): DoctorDeps {
  const platform = currentPlatform();
  return {
    home: xipeHome(),
    workspace,
    platform,
    extensionDir: extensionDist(),
    findBrowser: () => findBrowser({ platform }),
    probe: (descriptor, token) => probeHost(descriptor, token),
  };
}

export async function runDoctor(argv: string[]): Promise<number> {
  const args = argsOrExit(DOCTOR_COMMAND, argv);
  if (typeof args === 'number') return args;
  try {
    const workspace = path.resolve(args.values.workspace ?? process.cwd());
    const report = await runChecks(defaultDoctorDeps(workspace));
    process.stdout.write(
      args.values.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report),
    );
    return report.ok ? 0 : 1;
  } catch (err) {
    process.stderr.write(`x-ipe-uiux doctor: ${(err as Error).message}\n`);
    return 1;
  }
}
