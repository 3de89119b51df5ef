// Real processes for the benchmarks: Chromium with the built extension, the installed host, and
// MCP servers spawned over stdio — the same path an agent uses.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromePath, EXTENSION_DIST, EXTENSION_ID, launchChromium } from '../test/support/chromium.js';
import { realPageResponse } from '../test/support/real-pages.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = path.join(ROOT, 'bin', 'x-ipe-uiux.js');
export const EXTENSION_DIR = EXTENSION_DIST;
export { chromePath, EXTENSION_ID };

const { clientTarget, currentInitContext } = await import(path.join(ROOT, 'dist/node/cli/src/init.js'));

const { runtimeDir } = await import(path.join(ROOT, 'dist/node/shared/src/node/paths.js'));
const { isDescriptorFileName } = await import(
  path.join(ROOT, 'dist/node/shared/src/node/endpoint-descriptor.js')
);

export function tempDir(prefix = 'xipe-bench-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A workspace with one idea folder. */
export function makeWorkspace(dir, idea = '001. Bench Idea') {
  fs.mkdirSync(path.join(dir, 'x-ipe-docs', 'ideas', idea), { recursive: true });
  return { workspace: dir, idea };
}

/** The bench pages: `/real/...` fixtures (test/support/real-pages.js), anything else a plain page. */
export async function startPageServer() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const real = realPageResponse(url.pathname, url.searchParams);
    if (real) {
      res.writeHead(200, { 'content-type': real.type });
      res.end(real.body);
      return;
    }
    const body = `<!doctype html><html><head><title>bench ${req.url}</title></head><body><h1>Bench page</h1>${'<p>Lorem ipsum dolor sit amet.</p>'.repeat(50)}</body></html>`;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Launches Chromium with the extension, the host installed for its profile, user scripts allowed;
 * with `floor` (bench/floor/floor.js prepareFloor), the floor's extension and host beside them.
 */
export async function launchBrowser({
  base,
  workspace,
  userScripts = true,
  name = 'b1',
  deviceScaleFactor = 1,
  floor = null,
}) {
  const home = path.join(base, `${name}-home`);
  const profile = path.join(base, `${name}-profile`);
  const fakeHome = path.join(base, `${name}-oshome`);
  fs.mkdirSync(fakeHome, { recursive: true });
  const env = { ...process.env, XIPE_UIUX_HOME: home, HOME: fakeHome, ...(floor?.env ?? {}) };
  floor?.install(profile);
  // Off the service worker: an attached puppeteer session keeps it alive and paused across
  // restarts, so reconnect_after_sw_stop would not measure what a user gets.
  const browser = await launchChromium({
    userDataDir: profile,
    env,
    workspace,
    userScripts,
    attachToWorker: false,
    deviceScaleFactor,
    extraExtensions: floor === null ? [] : [floor.extension],
    // A desktop's screen: headless Chromium's default screen is 800 px tall, so a render window
    // for an 800 px area could not be made that tall (windows.update refuses bounds mostly off it).
    extraArgs: ['--screen-info={0,0 1920x1080}'],
  });
  const hostPid = await waitForHost(home);
  return {
    browser,
    home,
    profile,
    env,
    hostPid,
    browserURL: new URL(browser.wsEndpoint()).origin.replace('ws:', 'http:'),
  };
}

export function hostDescriptors(home) {
  const dir = runtimeDir(home);
  let names = [];
  try {
    names = fs.readdirSync(dir).filter(isDescriptorFileName);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    try {
      return [JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8'))];
    } catch {
      return [];
    }
  });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitForHost(home, { exceptPid = null, timeoutMs = 20_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const live = hostDescriptors(home).filter((d) => d.pid !== exceptPid && alive(d.pid));
    if (live.length > 0) return live[0].pid;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no host appeared in ${runtimeDir(home)} within ${timeoutMs} ms`);
}

/** The MCP server as an agent starts it: the command and arguments `x-ipe-uiux init` writes. */
const mcpCommands = new Map();

/**
 * The command `x-ipe-uiux init` writes for this workspace, flags included. Worked out once per
 * workspace: init probes which flags this Node accepts by spawning it, which happens at init time,
 * not when an agent starts the server, so it must not count in cold_start.
 */
export function mcpCommand(workspace) {
  if (!mcpCommands.has(workspace)) {
    const { entry } = clientTarget('claude', { ...currentInitContext(workspace), env: {} });
    mcpCommands.set(workspace, { command: entry.command, args: entry.args });
  }
  return mcpCommands.get(workspace);
}

export async function startMcp({ home, workspace, env = {} }) {
  const transport = new StdioClientTransport({
    ...mcpCommand(workspace),
    env: { ...process.env, ...env, XIPE_UIUX_HOME: home },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, pid: transport.pid };
}

/** Calls a tool and returns its JSON object; throws with the error object when isError. */
export async function call(client, name, args, { allowError = false } = {}) {
  const res = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  const obj = res.structuredContent ?? JSON.parse(res.content[0].text);
  if (res.isError && !allowError) throw new Error(`${name} failed: ${JSON.stringify(obj).slice(0, 400)}`);
  return { obj, res };
}

export function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

export async function waitForHostExit(pid, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && pid !== undefined && alive(pid))
    await new Promise((r) => setTimeout(r, 10));
}
