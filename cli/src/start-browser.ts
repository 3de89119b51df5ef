import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '#shared/commands/index.js';
import type { HostInfo } from '#shared/envelopes.js';
import { scanRuntimeDir } from '#shared/node/bridge/discovery.js';
import { probeHost } from '#shared/node/bridge/probe.js';
import type { EndpointDescriptor } from '#shared/node/endpoint-descriptor.js';
import { logsDir } from '#shared/node/index.js';
import { originAndPath } from '#shared/tab-match.js';

/**
 * The browser side of `x-ipe-uiux start`: its switches, launching it with its output in
 * <home>/logs/browser.log, waiting for its extension to reach a host, and explaining an early exit.
 */

const POLL_MS = 250;

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

/** Opens the toolbar on the start page through the bridge, or says how the user opens it. */
export async function openToolbarOnPage(
  descriptor: EndpointDescriptor,
  token: string,
  url: string,
): Promise<string> {
  // url_contains looks at a tab's origin and path only.
  const params = COMMANDS.inject_toolbar.params.safeParse({ url_contains: originAndPath(url) });
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

/** A launched browser: its process, and why it ended before the extension connected (null while it runs). */
export interface LaunchedBrowser {
  child: ChildProcess;
  logFile: string;
  /** Only this start's part of the log. */
  logSinceStart(): string;
  exitReason(): string | null;
}

/** Starts the browser with its stdout/stderr appended to <home>/logs/browser.log. */
export function launchBrowser(browserPath: string, plan: LaunchPlan, home: string): LaunchedBrowser {
  const logFile = path.join(logsDir(home), 'browser.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true, mode: 0o700 });
  const log = fs.openSync(logFile, 'a', 0o600);
  const logStart = fs.fstatSync(log).size;
  const child = spawn(browserPath, browserArgs(plan), { stdio: ['ignore', log, log], detached: false });
  fs.closeSync(log);
  let exit: string | null = null;
  child.once('error', (err) => {
    exit = `could not start ${browserPath}: ${err.message}`;
  });
  child.once('exit', (code, signal) => {
    exit ??= explainBrowserExit(
      `the browser exited (${signal ?? `code ${code}`}) before the extension connected`,
      readFrom(logFile, logStart),
      logFile,
    );
  });
  return { child, logFile, logSinceStart: () => readFrom(logFile, logStart), exitReason: () => exit };
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the browser has exited. */
export async function stopBrowser(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
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
