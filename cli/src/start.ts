import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { START_COMMAND } from '#shared/node/cli-commands.js';
import { argsOrExit, type OptionValues } from '#shared/node/command-line.js';
import { readToken, xipeHome } from '#shared/node/index.js';
import { ensureDemoWorkspace, type StaticServer, serveDirectory } from './demo.js';
import { BRANDED_CHROME_EXPLANATION, type BrowserCandidate, findBrowser } from './find-browser.js';
import { browserPresentOn, currentPlatform, install, windowsRegistry } from './install.js';
import { acceptedNodeFlags, HOST_NODE_FLAGS } from './node-flags.js';
import { cliEntry, extensionDist, packageRoot } from './package-root.js';
import { profileLockHolder, readyToolbarProfile } from './profile.js';
import {
  type ConnectedHost,
  type LaunchedBrowser,
  launchBrowser,
  noDisplayProblem,
  openToolbarOnPage,
  stopBrowser,
  waitForConnectedHost,
} from './start-browser.js';
import { listenForStop } from './stop-signals.js';

/**
 * `x-ipe-uiux start`: the main job. A Chromium that honours --load-extension, a dedicated profile
 * with the host registered and user scripts allowed, a workspace (the demo one by default), the
 * demo page (or URL) open, and a wait until the extension has connected to its host. `runStart`
 * reads as its steps; each step is a function below.
 */

const CONNECT_TIMEOUT_MS = 60_000;

export const defaultProfileDir = (home: string): string => path.join(home, 'profiles', 'default');

interface StartPlan {
  headless: boolean;
  timeoutMs: number;
  home: string;
  root: string;
  browser: BrowserCandidate;
  extensionDir: string;
  profileDir: string;
  workspace: string;
  /** The URL argument; absent: the bundled demo page. */
  url: string | undefined;
}

/** What start owns and must put away on every way out: the demo page server and the browser. */
class Owned {
  server: StaticServer | null = null;
  browser: LaunchedBrowser | null = null;
  async release(): Promise<void> {
    if (this.browser !== null) await stopBrowser(this.browser.child);
    await this.server?.close();
  }
}

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const fail = (message: string): number => {
  process.stderr.write(`x-ipe-uiux start: ${message}\n`);
  return 1;
};

export async function runStart(argv: string[]): Promise<number> {
  const args = argsOrExit(START_COMMAND, argv);
  if (typeof args === 'number') return args;
  const plan = planStart(args.values, args.positionals[0]);
  if (typeof plan !== 'object') return plan;
  const stop = listenForStop();
  const owned = new Owned();
  try {
    const token = registerHostForProfile(plan);
    const url = plan.url ?? (await serveDemoPage(plan, owned));
    const since = Date.now() - 1_000;
    owned.browser = launchBrowser(plan.browser.path, { ...plan, url, runningAsRoot: isRoot() }, plan.home);
    out(
      `Starting ${describe(plan.browser)}${plan.headless ? ' headless' : ''} with the extension from ${plan.extensionDir}`,
    );
    const connected = await awaitExtension(plan, owned.browser, { token, since }, () => stop.received);
    if ('stopped' in connected) {
      await owned.release();
      return stop.received !== null ? 130 : fail(connected.stopped);
    }
    await announceReady(plan, connected, url, readToken(plan.home) ?? token);
    const reason = await Promise.race([stop.next, browserExit(owned.browser.child)]);
    await owned.release();
    out(`stopped (${reason})`);
    return 0;
  } catch (err) {
    await owned.release();
    return fail((err as Error).message);
  } finally {
    stop.dispose();
  }
}

/** Options, browser, built extension, free profile and workspace, or the exit code of a refusal. */
function planStart(
  values: OptionValues<typeof START_COMMAND.options>,
  url: string | undefined,
): StartPlan | number {
  // `npm start --headless` hands the option to npm, which passes it on only as npm_config_headless.
  const npmSwallowed = values.headless !== true && process.env.npm_config_headless === 'true';
  if (npmSwallowed) {
    process.stderr.write(
      'x-ipe-uiux start: npm kept --headless for itself (`npm start --headless`); running headless anyway. Next time: `npm run start:headless`.\n',
    );
  }
  const timeoutMs = Number(values.timeout ?? CONNECT_TIMEOUT_MS / 1000) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    process.stderr.write('x-ipe-uiux start: --timeout takes a number of seconds\n');
    return 2;
  }
  const home = xipeHome();
  const root = packageRoot();
  const search = findBrowser({ platform: currentPlatform() });
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
  const extensionDir = extensionDist(root);
  if (!fs.existsSync(path.join(extensionDir, 'manifest.json'))) {
    return fail(
      `the extension is not built (${extensionDir}/manifest.json missing): run \`npm run build\` in ${root}`,
    );
  }
  const profileDir = path.resolve(values['user-data-dir'] ?? defaultProfileDir(home));
  const holder = profileLockHolder(profileDir);
  if (holder !== null) {
    return fail(
      `a browser (pid ${holder}) already uses the profile ${profileDir}; close it, or pass --user-data-dir for another profile`,
    );
  }
  const workspace =
    values.workspace !== undefined ? path.resolve(values.workspace) : ensureDemoWorkspace(home, root).dir;
  const headless = values.headless === true || npmSwallowed;
  return { headless, timeoutMs, home, root, browser: search.found, extensionDir, profileDir, workspace, url };
}

/** The host manifest in the profile (and the token, the workspace), the profile readied for the toolbar; the token. */
function registerHostForProfile(plan: StartPlan): string {
  const platform = currentPlatform();
  const report = install({
    browser: 'chromium',
    userDataDir: plan.profileDir,
    workspace: plan.workspace,
    home: plan.home,
    platform,
    nodePath: process.execPath,
    nodeFlags: acceptedNodeFlags(process.execPath, HOST_NODE_FLAGS),
    entry: cliEntry(plan.root),
    registry: windowsRegistry,
    browserPresent: browserPresentOn(platform),
  });
  readyToolbarProfile(plan.profileDir);
  return report.token;
}

async function serveDemoPage(plan: StartPlan, owned: Owned): Promise<string> {
  owned.server = await serveDirectory(path.join(plan.root, 'demo', 'page'));
  return owned.server.url;
}

/** Until a host started now has the extension, or why not (a signal, the browser gone, no display, the limit). */
function awaitExtension(
  plan: StartPlan,
  browser: LaunchedBrowser,
  link: { token: string; since: number },
  signalled: () => NodeJS.Signals | null,
): Promise<ConnectedHost | { stopped: string }> {
  const deadline = Date.now() + plan.timeoutMs;
  return waitForConnectedHost({
    home: plan.home,
    ...link,
    stop: () => {
      const signal = signalled();
      if (signal !== null) return `interrupted by ${signal}`;
      return (
        browser.exitReason() ??
        // Said at once, even while a slow machine has not reaped the browser yet.
        (plan.headless ? null : noDisplayProblem(browser.logSinceStart())) ??
        (Date.now() > deadline
          ? `the extension did not connect within ${Math.round(plan.timeoutMs / 1000)} s; run \`x-ipe-uiux doctor --workspace '${plan.workspace}'\` (browser log: ${browser.logFile})`
          : null)
      );
    },
  });
}

async function announceReady(
  plan: StartPlan,
  connected: ConnectedHost,
  url: string,
  token: string,
): Promise<void> {
  const toolbar = await openToolbarOnPage(connected.descriptor, token, url);
  out(`X-IPE UI/UX Reference is ready: extension connected to host pid ${connected.host.pid}.`);
  out(`  page:      ${url}`);
  out(`  workspace: ${plan.workspace} (idea folders in x-ipe-docs/ideas)`);
  out(`  profile:   ${plan.profileDir}`);
  if (connected.host.extension?.user_scripts_allowed !== true)
    out('  note: user scripts are not allowed yet; run `x-ipe-uiux doctor` for the fix');
  out('Next:');
  out(`  - Toolbar: ${toolbar}.`);
  out('  - Agents: run `x-ipe-uiux init --client all` in your project to register the MCP server.');
  out(`  - Trouble: \`x-ipe-uiux doctor --workspace '${plan.workspace}'\` checks every link.`);
  out(
    plan.headless
      ? 'Stop with Ctrl+C (SIGINT), SIGTERM or SIGHUP.'
      : 'Close the browser, press Ctrl+C or close this terminal to stop.',
  );
  if (plan.headless) out(`ready: extension connected (host pid ${connected.host.pid})`);
}

function browserExit(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve('browser exited');
    else child.once('exit', () => resolve('browser exited'));
  });
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

function describe(c: BrowserCandidate): string {
  return `${c.version ?? c.kind} (${c.path})`;
}
