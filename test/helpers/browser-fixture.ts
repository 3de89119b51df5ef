/**
 * End-to-end fixture: real headless Chromium (Debian's /usr/bin/chromium, or CHROME_PATH) with the
 * built extension, the real native host registered with `x-ipe-uiux install --user-data-dir`, and
 * everything per-user isolated in a temp dir (XIPE_UIUX_HOME, user-data-dir, HOME, workspace).
 *
 *   const env = await BrowserEnv.start();          // browser up, worker running, host connected
 *   const page = await env.openPage('/plain');
 *   const mcp = await env.startMcp();              // the real MCP server over stdio (browser-mcp.ts)
 *   await env.dispose();
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page, Target, WebWorker } from 'puppeteer-core';
import { EXTENSION_ID } from '#shared/constants.js';
import type { HostInfo } from '#shared/envelopes.js';
import { EndpointDescriptor, isDescriptorFileName } from '#shared/node/endpoint-descriptor.js';
import { readToken, runtimeDir } from '#shared/node/index.js';
import { assertExtensionBuilt, chromePath, launchChromium } from '../support/chromium.js';
import { type PageServer, startPageServer } from './browser-pages.js';
import { BridgeTestClient, REPO_ROOT } from './fake-extension.js';

export { EXTENSION_DIST } from '../support/chromium.js';
export const CHROME_PATH = chromePath();

export interface BrowserEnvOptions {
  /** Write the "Allow User Scripts" preference before launch (default true). */
  userScripts?: boolean;
  /** Register the native host (default true); false for a browser with no host. */
  installHost?: boolean;
  /**
   * Let puppeteer attach to the extension's service worker (default true, needed for
   * `serviceWorker()`). Puppeteer holds a worker it attached to paused after the worker restarts
   * (waiting for a debugger that never resumes it), so tests of worker restarts pass false.
   */
  attachToWorker?: boolean;
  /** devicePixelRatio of the browser (`--force-device-scale-factor`; default 1). */
  deviceScaleFactor?: number;
  /** Chromium's `--window-size` (default 1280,800). */
  windowSize?: string;
  /** More Chromium flags (the real-web corpus resolves nothing but loopback). */
  extraArgs?: string[];
}

export interface HostStatus {
  descriptor: EndpointDescriptor;
  info: HostInfo;
}

export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | null | undefined> | T | null | undefined,
  timeoutMs = 15_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const value = await probe();
      if (value !== null && value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const suffix = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${suffix}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export class BrowserEnv {
  private constructor(
    readonly root: string,
    readonly home: string,
    readonly userDataDir: string,
    readonly workspace: string,
    readonly browser: Browser,
    readonly pages: PageServer,
    private readonly processEnv: NodeJS.ProcessEnv,
  ) {}

  static async start(options: BrowserEnvOptions = {}): Promise<BrowserEnv> {
    assertExtensionBuilt();
    // Short root: the host's Unix socket path must stay under ~100 bytes.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xe2e-'));
    const home = path.join(root, 'h');
    const userDataDir = path.join(root, 'profile');
    const fakeHome = path.join(root, 'home');
    const workspace = path.join(root, 'ws');
    fs.mkdirSync(fakeHome, { recursive: true });
    fs.cpSync(path.join(REPO_ROOT, 'demo', 'workspace'), workspace, { recursive: true });

    const processEnv: NodeJS.ProcessEnv = { ...process.env, HOME: fakeHome, XIPE_UIUX_HOME: home };
    const pages = await startPageServer();
    let browser: Browser;
    try {
      browser = await launchChromium({
        userDataDir,
        env: processEnv,
        workspace,
        userScripts: options.userScripts !== false,
        installHost: options.installHost !== false,
        attachToWorker: options.attachToWorker !== false,
        deviceScaleFactor: options.deviceScaleFactor ?? 1,
        ...(options.windowSize ? { windowSize: options.windowSize } : {}),
        extraArgs: options.extraArgs ?? [],
      });
    } catch (err) {
      await pages.close().catch(() => undefined);
      throw err;
    }
    const env = new BrowserEnv(root, home, userDataDir, workspace, browser, pages, processEnv);
    try {
      if (options.attachToWorker !== false) await env.serviceWorker();
      if (options.installHost !== false) await env.waitForHost();
    } catch (err) {
      await env.dispose();
      throw err;
    }
    return env;
  }

  /** The environment the MCP server (and anything else of ours) runs with. */
  get env(): NodeJS.ProcessEnv {
    return this.processEnv;
  }

  url(pathname: string): string {
    return `${this.pages.origin}${pathname}`;
  }

  async serviceWorkerTarget(timeoutMs = 15_000): Promise<Target> {
    return this.browser.waitForTarget(
      (t) => t.type() === 'service_worker' && t.url().startsWith(`chrome-extension://${EXTENSION_ID}/`),
      { timeout: timeoutMs },
    );
  }

  /** The extension's worker, once `chrome` is usable in it (right after start it may not be yet). */
  async serviceWorker(): Promise<WebWorker> {
    const target = await this.serviceWorkerTarget();
    const worker = await target.worker();
    if (worker === null) throw new Error('the service worker target has no worker');
    await waitUntil(
      'chrome.runtime in the service worker',
      async () =>
        (await worker.evaluate(
          () => typeof chrome !== 'undefined' && typeof chrome.runtime?.id === 'string',
        )) || null,
    );
    return worker;
  }

  /**
   * Stops every service worker through the DevTools protocol (ServiceWorker.stopAllWorkers on a
   * page's session), as Chrome stops an idle one. Use with `attachToWorker: false` (see there).
   */
  async stopServiceWorker(page: Page): Promise<void> {
    const session = await page.createCDPSession();
    try {
      await session.send('ServiceWorker.enable');
      await session.send('ServiceWorker.stopAllWorkers');
    } finally {
      await session.detach();
    }
  }

  /** Live host descriptors in this env's runtime dir. */
  descriptors(): EndpointDescriptor[] {
    const dir = runtimeDir(this.home);
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      if (!isDescriptorFileName(name)) return [];
      try {
        const parsed = EndpointDescriptor.safeParse(
          JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')),
        );
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }

  /** Asks a host over the bridge (token handshake) who it is; null when it does not answer. */
  async hostStatus(descriptor: EndpointDescriptor): Promise<HostInfo | null> {
    const token = readToken(this.home);
    if (token === null) return null;
    const client = await BridgeTestClient.connect(descriptor.endpoint, { token });
    try {
      return client.hostInfo;
    } finally {
      await client.close();
    }
  }

  /** Waits until a live host (other than `exceptPid`) reports the extension connected. */
  async waitForHost(options: { exceptPid?: number; timeoutMs?: number } = {}): Promise<HostStatus> {
    return waitUntil(
      'a native host with the extension connected',
      async () => {
        for (const descriptor of this.descriptors()) {
          if (descriptor.pid === options.exceptPid) continue;
          try {
            process.kill(descriptor.pid, 0);
          } catch {
            continue;
          }
          const info = await this.hostStatus(descriptor).catch(() => null);
          if (info?.extension_connected) return { descriptor, info };
        }
        return null;
      },
      options.timeoutMs ?? 15_000,
      50,
    );
  }

  async openPage(pathname: string): Promise<Page> {
    const page = await this.browser.newPage();
    await page.goto(this.url(pathname), { waitUntil: 'load' });
    return page;
  }

  async dispose(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await this.pages.close().catch(() => undefined);
    // The host exits when Chrome closes its stdin; give it a moment before removing its home.
    for (const descriptor of this.descriptors()) {
      await waitUntil(
        `host ${descriptor.pid} to exit`,
        () => {
          try {
            process.kill(descriptor.pid, 0);
            return null;
          } catch {
            return true;
          }
        },
        5_000,
      ).catch(() => {
        try {
          process.kill(descriptor.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      });
    }
    // Chromium's helpers (crashpad) and a host started in the last instant may still be writing
    // here: retry, and leave the temp dir behind rather than fail a test over cleanup.
    for (let attempt = 0; ; attempt += 1) {
      try {
        fs.rmSync(this.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
        return;
      } catch (err) {
        if (attempt >= 3) {
          process.stderr.write(`browser fixture: left ${this.root} behind: ${(err as Error).message}\n`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }
}
