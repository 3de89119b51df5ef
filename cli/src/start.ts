import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS, type CommandSpec } from '../../shared/src/commands/index.js';
import type { HostInfo } from '../../shared/src/envelopes.js';
import { scanRuntimeDir } from '../../shared/src/node/bridge/discovery.js';
import { probeHost } from '../../shared/src/node/bridge/probe.js';
import { START_COMMAND } from '../../shared/src/node/cli-commands.js';
import { argsOrExit } from '../../shared/src/node/command-line.js';
import type { EndpointDescriptor } from '../../shared/src/node/endpoint-descriptor.js';
import { logsDir, readToken, xipeHome } from '../../shared/src/node/index.js';
import { ensureDemoWorkspace, type StaticServer, serveDirectory } from './demo.js';
import { BRANDED_CHROME_EXPLANATION, type BrowserCandidate, findBrowser } from './find-browser.js';
import { browserPresentOn, currentPlatform, install, windowsRegistry } from './install.js';
import { acceptedNodeFlags, HOST_NODE_FLAGS } from './node-flags.js';
import { cliEntry, extensionDist, packageRoot } from './package-root.js';
import { profileLockHolder, readyToolbarProfile } from './profile.js';

/**
 * `x-ipe-uiux start`: the main job. A Chromium that honours --load-extension, a dedicated profile
 * with the host registered and user scripts allowed, a workspace (the demo one by default), the
 * demo page (or URL) open, and a wait until the extension has connected to its host.
 */

const CONNECT_TIMEOUT_MS = 60_000;
const POLL_MS = 250;

export const defaultProfileDir = (home: string): string => path.join(home, 'profiles', 'default');

export interface LaunchPlan {
  extensionDir: string;
  profileDir: string;
  headless: boolean;
  /** Chromium refuses to run as root with its sandbox on. */
  runningAsRoot: boolean;
  url: string;
}

/** Command-line switches for the browser (pure, so tested without launching anything). */
export function browserArgs(plan: LaunchPlan): string[] {
  const args = [
    `--load-extension=${plan.extensionDir}`,
    // Some launchers add --disable-extensions; this keeps ours enabled and nothing else.
    `--disable-extensions-except=${plan.extensionDir}`,
    `--user-data-dir=${plan.profileDir}`,
    '--no-first-run',
    '--no-default-browser-check',
  ];
  if (plan.runningAsRoot) args.push('--no-sandbox');
  if (plan.headless) {
    args.push(
      '--headless=new',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--window-size=1280,800',
    );
  }
  args.push(plan.url);
  return args;
}

export interface ConnectedHost {
  host: HostInfo;
  descriptor: EndpointDescriptor;
}

/**
 * Polls the runtime dir until a host started after `since` answers the hello with
 * `extension_connected`. Resolves null when `stop()` says to give up (browser gone, timeout).
 */
export async function waitForConnectedHost(o: {
  home: string;
  token: string;
  since: number;
  stop: () => string | null;
}): Promise<ConnectedHost | { stopped: string }> {
  for (;;) {
    for (const descriptor of (await scanRuntimeDir(o.home)).live) {
      const started = Date.parse(descriptor.started_at);
      if (Number.isFinite(started) && started < o.since) continue;
      const outcome = await probeHost(descriptor, o.token, { timeoutMs: 2_000 });
      if (outcome.ok && outcome.host.extension_connected) return { host: outcome.host, descriptor };
    }
    const why = o.stop();
    if (why !== null) return { stopped: why };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Hook: opens the toolbar on the start page once the bridge has an `inject_toolbar` command (the
 * toolbar issue adds it). Until then it reports that the toolbar opens from the extension icon.
 */
export async function openToolbarOnPage(
  descriptor: EndpointDescriptor,
  token: string,
  url: string,
): Promise<string> {
  const spec: CommandSpec | undefined = (COMMANDS as Record<string, CommandSpec>).inject_toolbar;
  if (spec === undefined)
    return 'click the X-IPE UI/UX Reference icon in the browser toolbar to open the toolbar';
  const params = spec.params.safeParse({ url_contains: url });
  if (!params.success) return 'click the X-IPE UI/UX Reference icon to open the toolbar';
  const outcome = await probeHost(descriptor, token, {
    timeoutMs: 20_000,
    request: { command: 'inject_toolbar', params: params.data, timeout_ms: 15_000 },
  });
  if (outcome.ok) return 'the toolbar is open on the page';
  const why = outcome.error.message;
  return `could not open the toolbar automatically (${why}); click the X-IPE UI/UX Reference icon instead`;
}

/** What the user can run instead when there is no display (npm swallows `npm start --headless`). */
export const HEADLESS_HINT =
  'run headless: `x-ipe-uiux start --headless`, from a clone `npm run start:headless` ' +
  '(or `npm start -- --headless`: npm keeps the options before `--` for itself)';

/** What Chromium logs when it has no display to open a window on (then it exits). */
const NO_DISPLAY = /Missing X server or \$DISPLAY/;

/** The explanation for a browser that has no display, or null when its log does not say so. */
export function noDisplayProblem(logSinceStart: string): string | null {
  return NO_DISPLAY.test(logSinceStart)
    ? `the browser cannot open a window: there is no display (Chromium says "Missing X server or $DISPLAY"). On a machine without one (SSH, CI, a container) ${HEADLESS_HINT}.`
    : null;
}

/**
 * Why the browser exited before the extension connected, from what it wrote to its log during
 * this start. A missing display is the usual first-run failure over SSH, in CI or a container.
 */
export function explainBrowserExit(exit: string, logSinceStart: string, logFile: string): string {
  return noDisplayProblem(logSinceStart) ?? `${exit}; see ${logFile}`;
}

/** Signals that stop `start` (and with it the browser and the host): SIGHUP is a closed terminal. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function describe(c: BrowserCandidate): string {
  return `${c.version ?? c.kind} (${c.path})`;
}

export async function runStart(argv: string[]): Promise<number> {
  const args = argsOrExit(START_COMMAND, argv);
  if (typeof args === 'number') return args;
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const fail = (message: string): number => {
    process.stderr.write(`x-ipe-uiux start: ${message}\n`);
    return 1;
  };
  // `npm start --headless` hands the option to npm, which passes it on only as npm_config_headless.
  const npmSwallowed = args.values.headless !== true && process.env.npm_config_headless === 'true';
  if (npmSwallowed) {
    process.stderr.write(
      'x-ipe-uiux start: npm kept --headless for itself (`npm start --headless`); running headless anyway. Next time: `npm run start:headless`.\n',
    );
  }
  const headless = args.values.headless === true || npmSwallowed;
  const timeoutMs = Number(args.values.timeout ?? CONNECT_TIMEOUT_MS / 1000) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    process.stderr.write('x-ipe-uiux start: --timeout takes a number of seconds\n');
    return 2;
  }
  const home = xipeHome();
  const platform = currentPlatform();
  const root = packageRoot();

  const search = findBrowser({ platform });
  if (search.found === null) {
    const reasons = search.rejected.map((r) => `  - ${r.reason}`);
    return fail(
      [
        'no browser that honours --load-extension was found.',
        ...reasons,
        `Looked at: ${search.looked.join(', ')}`,
        reasons.length === 0 ? `Install Chromium or set CHROME_PATH. ${BRANDED_CHROME_EXPLANATION}` : '',
      ]
        .filter((l) => l !== '')
        .join('\n'),
    );
  }
  const browser = search.found;
  const extensionDir = extensionDist(root);
  if (!fs.existsSync(path.join(extensionDir, 'manifest.json'))) {
    return fail(
      `the extension is not built (${extensionDir}/manifest.json missing): run \`npm run build\` in ${root}`,
    );
  }

  const profileDir = path.resolve(args.values['user-data-dir'] ?? defaultProfileDir(home));
  const holder = profileLockHolder(profileDir);
  if (holder !== null) {
    return fail(
      `a browser (pid ${holder}) already uses the profile ${profileDir}; close it, or pass --user-data-dir for another profile`,
    );
  }
  const workspaceFlag = args.values.workspace;
  const workspace =
    workspaceFlag !== undefined ? path.resolve(workspaceFlag) : ensureDemoWorkspace(home, root).dir;

  let server: StaticServer | null = null;
  let child: ChildProcess | null = null;
  const cleanup = async (): Promise<void> => {
    if (child !== null && child.exitCode === null && child.signalCode === null) {
      const c = child;
      const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await server?.close();
  };

  const stop = listenForStop();
  try {
    const report = install({
      browser: 'chromium',
      userDataDir: profileDir,
      workspace,
      home,
      platform,
      nodePath: process.execPath,
      nodeFlags: acceptedNodeFlags(process.execPath, HOST_NODE_FLAGS),
      entry: cliEntry(root),
      registry: windowsRegistry,
      browserPresent: browserPresentOn(platform),
    });
    readyToolbarProfile(profileDir);
    let url = args.positionals[0];
    if (url === undefined) {
      server = await serveDirectory(path.join(root, 'demo', 'page'));
      url = server.url;
    }

    const logFile = path.join(logsDir(home), 'browser.log');
    fs.mkdirSync(path.dirname(logFile), { recursive: true, mode: 0o700 });
    const log = fs.openSync(logFile, 'a', 0o600);
    const logStart = fs.fstatSync(log).size;
    const since = Date.now() - 1_000;
    const launched = spawn(
      browser.path,
      browserArgs({
        extensionDir,
        profileDir,
        headless,
        runningAsRoot: typeof process.getuid === 'function' && process.getuid() === 0,
        url,
      }),
      { stdio: ['ignore', log, log], detached: false },
    );
    fs.closeSync(log);
    child = launched;
    let browserExit: string | null = null;
    launched.once('error', (err) => {
      browserExit = `could not start ${browser.path}: ${err.message}`;
    });
    launched.once('exit', (code, signal) => {
      browserExit ??= explainBrowserExit(
        `the browser exited (${signal ?? `code ${code}`}) before the extension connected`,
        readFrom(logFile, logStart),
        logFile,
      );
    });
    out(
      `Starting ${describe(browser)}${headless ? ' headless' : ''} with the extension from ${extensionDir}`,
    );

    const deadline = Date.now() + timeoutMs;
    const connected = await waitForConnectedHost({
      home,
      token: report.token,
      since,
      stop: () =>
        stop.received !== null
          ? `interrupted by ${stop.received}`
          : (browserExit ??
            // Said at once, even while a slow machine has not reaped the browser yet.
            (headless ? null : noDisplayProblem(readFrom(logFile, logStart))) ??
            (Date.now() > deadline
              ? `the extension did not connect within ${Math.round(timeoutMs / 1000)} s; run \`x-ipe-uiux doctor --workspace '${workspace}'\` (browser log: ${logFile})`
              : null)),
    });
    if ('stopped' in connected) {
      await cleanup();
      return stop.received !== null ? 130 : fail(connected.stopped);
    }

    const toolbar = await openToolbarOnPage(connected.descriptor, readToken(home) ?? report.token, url);
    const userScripts = connected.host.extension?.user_scripts_allowed === true;
    out(`X-IPE UI/UX Reference is ready: extension connected to host pid ${connected.host.pid}.`);
    out(`  page:      ${url}`);
    out(`  workspace: ${workspace} (idea folders in x-ipe-docs/ideas)`);
    out(`  profile:   ${profileDir}`);
    if (!userScripts) out('  note: user scripts are not allowed yet; run `x-ipe-uiux doctor` for the fix');
    out('Next:');
    out(`  - Toolbar: ${toolbar}.`);
    out('  - Agents: run `x-ipe-uiux init --client all` in your project to register the MCP server.');
    out(`  - Trouble: \`x-ipe-uiux doctor --workspace '${workspace}'\` checks every link.`);
    out(
      headless
        ? 'Stop with Ctrl+C (SIGINT), SIGTERM or SIGHUP.'
        : 'Close the browser, press Ctrl+C or close this terminal to stop.',
    );
    if (headless) out(`ready: extension connected (host pid ${connected.host.pid})`);

    const reason = await Promise.race([
      stop.next,
      new Promise<string>((resolve) => {
        if (launched.exitCode !== null || launched.signalCode !== null) resolve('browser exited');
        else launched.once('exit', () => resolve('browser exited'));
      }),
    ]);
    await cleanup();
    out(`stopped (${reason})`);
    return 0;
  } catch (err) {
    await cleanup();
    return fail((err as Error).message);
  } finally {
    stop.dispose();
  }
}

/**
 * The stop signals, listened to from before the browser starts until `start` returns: a signal
 * must never find a moment without our handler (its default ends the process and orphans the
 * browser), nor a second one interrupt the cleanup the first began.
 */
function listenForStop(): {
  received: NodeJS.Signals | null;
  next: Promise<NodeJS.Signals>;
  dispose(): void;
} {
  let resolveNext: (signal: NodeJS.Signals) => void = () => {};
  const state = {
    received: null as NodeJS.Signals | null,
    next: new Promise<NodeJS.Signals>((resolve) => {
      resolveNext = resolve;
    }),
    dispose: () => {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    state.received ??= signal;
    resolveNext(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return state;
}

/** What a log file gained since `offset` (bounded: the last 64 KiB of it). */
function readFrom(file: string, offset: number): string {
  try {
    const size = fs.statSync(file).size;
    const start = Math.max(offset, size - 64 * 1024);
    if (size <= start) return '';
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(size - start);
      fs.readSync(fd, buffer, 0, buffer.length, start);
      return buffer.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}
