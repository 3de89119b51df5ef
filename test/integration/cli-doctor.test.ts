import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tokenPath } from '#shared/node/paths.js';
import { CLI_BIN, FakeExtension } from '../helpers/fake-extension.js';

/**
 * `x-ipe-uiux doctor` as a real process against a real host (spawned by the fake-extension
 * helper, which plays the browser side): the bridge, extension and user-scripts links are broken
 * one at a time and doctor must name the broken one with its fix.
 */

interface Check {
  id: string;
  status: string;
  detail: string;
  fix?: string;
}

let tmp: string;
let home: string;
let workspace: string;
const hosts: FakeExtension[] = [];

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_BIN, ...args], {
    env: {
      ...process.env,
      XIPE_UIUX_HOME: home,
      HOME: path.join(tmp, 'user'),
      CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function doctor(): { code: number | null; checks: Record<string, Check> } {
  const r = cli('doctor', '--json', '--workspace', workspace);
  const report = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
  expect(report.ok).toBe(r.code === 0);
  return { code: r.code, checks: Object.fromEntries(report.checks.map((c) => [c.id, c])) };
}

async function startHost(options: Parameters<typeof FakeExtension.start>[0] = {}): Promise<FakeExtension> {
  const ext = await FakeExtension.start({ home, ...options });
  hosts.push(ext);
  await ext.descriptor();
  return ext;
}

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xcd-'));
  home = path.join(tmp, 'h');
  workspace = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(workspace, 'x-ipe-docs', 'ideas', '001. Demo'), { recursive: true });
  const installed = cli('install', '--user-data-dir', path.join(tmp, 'profile'), '--workspace', workspace);
  expect(installed.code, installed.stderr).toBe(0);
});

afterEach(async () => {
  for (const ext of hosts.splice(0)) await ext.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('doctor against a real host', () => {
  it('is all green with a connected extension that allows user scripts', async () => {
    await startHost();
    const { code, checks } = doctor();
    expect(Object.values(checks).filter((c) => c.status !== 'ok')).toEqual([]);
    expect(code).toBe(0);
  });

  it('names the bridge when no host runs', () => {
    const { code, checks } = doctor();
    expect(code).toBe(1);
    expect(checks.bridge?.status).toBe('fail');
    expect(checks.bridge?.fix).toContain('x-ipe-uiux start');
    expect(checks.extension_connected?.status).toBe('skip');
  });

  it('names the extension link when the host has no extension attached', async () => {
    await startHost({ hello: false });
    const { code, checks } = doctor();
    expect(code).toBe(1);
    expect(checks.bridge?.status).toBe('ok');
    expect(checks.extension_connected?.status).toBe('fail');
    expect(checks.extension_connected?.fix).toContain('chrome://extensions');
  });

  it('names user scripts when the toggle is off', async () => {
    await startHost({ extension: { user_scripts_allowed: false } });
    const { code, checks } = doctor();
    expect(code).toBe(1);
    expect(checks.extension_connected?.status).toBe('ok');
    expect(checks.user_scripts?.status).toBe('fail');
    expect(checks.user_scripts?.fix).toContain('Allow User Scripts');
  });

  it('names a token mismatch between the host and this shell', async () => {
    await startHost();
    fs.writeFileSync(tokenPath(home), 'not-the-hosts-token\n', { mode: 0o600 });
    const { code, checks } = doctor();
    expect(code).toBe(1);
    expect(checks.bridge?.status).toBe('fail');
    expect(checks.bridge?.detail).toContain('UNAUTHORIZED');
    expect(checks.bridge?.fix).toContain('XIPE_UIUX_HOME');
  });

  it('prints one line per check with a fix line under each failure', () => {
    const r = cli('doctor', '--workspace', path.join(tmp, 'nowhere'));
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => /^\[(?: ok |warn|FAIL|skip)\] /.test(l))).toHaveLength(8);
    expect(r.stdout).toMatch(
      /\[FAIL\] workspace has x-ipe-docs\/ideas: .*\n {7}fix: .*x-ipe-uiux init --idea/,
    );
  });
});
