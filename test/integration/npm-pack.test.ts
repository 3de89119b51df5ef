import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_HOST_NAME } from '#shared/constants.js';
import { REPO_ROOT } from '../helpers/fake-extension.js';

// `npx`-style use of a packed tarball: `npm pack` (dist/ as the global setup built it), install it
// into an empty folder, and run `x-ipe-uiux install`, `mcp` and `start --headless` from there.
// dist/cli bundles every runtime dependency but jsdom (the host's DOM for the SVG sanitizer, which
// reads files next to its own code and so cannot be bundled): the tarball carries it
// (bundleDependencies), so installing the package still reads nothing from the registry.

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
let tmp: string;
let app: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-pack-')));
  const shell = process.platform === 'win32';
  const packed = execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    shell,
  });
  const tarball = path.join(tmp, (JSON.parse(packed) as Array<{ filename: string }>)[0]?.filename ?? '');
  app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}\n');
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--offline', tarball], { cwd: app, shell });
  env = {
    ...process.env,
    HOME: path.join(tmp, 'user'),
    XIPE_UIUX_HOME: path.join(tmp, 'xipe-home'),
    // Not the clone's own node_modules/.bin: only what the tarball installed.
    PATH: [
      path.join(app, 'node_modules', '.bin'),
      path.dirname(process.execPath),
      process.env.PATH ?? '',
    ].join(path.delimiter),
  };
}, 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const installed = () => path.join(app, 'node_modules', 'x-ipe-uiux-reference');

describe('the packed tarball, installed into an empty folder', () => {
  it('holds the CLI bundle, the built extension and the demo, and no build leftovers', () => {
    const root = installed();
    for (const file of [
      'bin/x-ipe-uiux.js',
      'dist/cli/cli.js',
      'dist/extension/manifest.json',
      'manifest.json',
    ]) {
      expect(fs.existsSync(path.join(root, file)), file).toBe(true);
    }
    expect(fs.existsSync(path.join(root, 'dist', 'node'))).toBe(false);
    expect(
      fs.readdirSync(path.join(app, 'node_modules')).filter((d) => d !== '.bin' && !d.startsWith('.')),
    ).toEqual(['x-ipe-uiux-reference']);
    const own = fs.readdirSync(path.join(root, 'node_modules'));
    expect(own).toContain('jsdom');
    // Nothing the build uses came along.
    for (const dev of ['vite', 'typescript', 'dompurify', 'happy-dom', 'puppeteer-core'])
      expect(own, dev).not.toContain(dev);
  });

  it('npx x-ipe-uiux install registers a host whose launcher runs the installed package', () => {
    const profile = path.join(tmp, 'profile');
    const out = execFileSync(npx, ['--no', 'x-ipe-uiux', 'install', '--user-data-dir', profile], {
      cwd: app,
      env,
      encoding: 'utf8',
      shell: process.platform === 'win32',
    });
    expect(out).toContain(`Installed the native host ${NATIVE_HOST_NAME}`);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(profile, 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.json`), 'utf8'),
    ) as { path: string };
    expect(fs.readFileSync(manifest.path, 'utf8')).toContain(path.join(installed(), 'bin', 'x-ipe-uiux.js'));
  });

  it('npx x-ipe-uiux mcp serves a stock MCP client', async () => {
    const client = new Client({ name: 'pack-test', version: '0' });
    await client.connect(
      new StdioClientTransport({
        command: npx,
        args: ['--no', 'x-ipe-uiux', 'mcp', '--workspace', tmp],
        cwd: app,
        env: env as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('inject_script');
      const status = await client.callTool({ name: 'bridge_status', arguments: {} });
      expect(status.structuredContent).toMatchObject({ workspace: { path: tmp } });
    } finally {
      await client.close();
    }
  });

  it('npx x-ipe-uiux start --headless gets its extension connected, then stops on SIGTERM', async () => {
    // Its own process group: npx does not pass signals on to the CLI it runs, so the test stops
    // the whole group, as a terminal does.
    const child: ChildProcess = spawn(npx, ['--no', 'x-ipe-uiux', 'start', '--headless', '--timeout', '60'], {
      cwd: app,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect
        .poll(() => /^ready: /m.test(output) || child.exitCode !== null, { timeout: 90_000 })
        .toBe(true);
      expect(output).toMatch(/^ready: extension connected \(host pid \d+\)$/m);
      expect(output).toContain(path.join(installed(), 'dist', 'extension'));
    } finally {
      if (process.platform === 'win32') execFileSync('taskkill', ['/pid', String(child.pid), '/T', '/F']);
      else process.kill(-(child.pid ?? 0), 'SIGTERM');
      await exited;
    }
    // start stopped its browser and host: nothing of this install is left running.
    await expect
      .poll(
        () => (process.platform === 'win32' ? '' : execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })),
        {
          timeout: 15_000,
        },
      )
      .not.toContain(installed());
  }, 120_000);
});
