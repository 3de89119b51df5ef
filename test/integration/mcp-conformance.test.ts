import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fake-extension.js';
import { startHttpMcp } from '../helpers/http-mcp.js';

// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
// test/conformance/package.json) against the real server over Streamable HTTP. It needs Node ≥ 22:
// the `node` package there brings a Node 22 binary from the npm registry. .ci/run installs it;
// here it is installed when missing. The only failures allowed are the scenarios listed in
// test/conformance/expected-failures.yaml (they call the suite's own test_* fixtures).

const TOOLS = path.join(REPO_ROOT, 'test', 'conformance');
const NODE22 = path.join(TOOLS, 'node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node');
const SUITE = path.join(TOOLS, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => {
  if (fs.existsSync(SUITE) && fs.existsSync(NODE22)) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', TOOLS, '--no-audit', '--no-fund'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) throw new Error(`npm ci --prefix test/conformance failed:\n${result.stderr}`);
}, 180_000);

function runSuite(url: string, outDir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      NODE22,
      [
        SUITE,
        'server',
        '--url',
        url,
        '--suite',
        'all',
        '--expected-failures',
        path.join(TOOLS, 'expected-failures.yaml'),
        '-o',
        outDir,
      ],
      { timeout: 150_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: stdout + stderr }),
    );
  });
}

/** Scenario name → whether every check passed, from the suite's own checks.json files. */
function results(outDir: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const dir of fs.readdirSync(outDir)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(dir)?.[1];
    const file = path.join(outDir, dir, 'checks.json');
    if (scenario === undefined || !fs.existsSync(file)) continue;
    const checks = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ status: string }>;
    out.set(
      scenario,
      checks.every((c) => c.status === 'SUCCESS' || c.status === 'INFO'),
    );
  }
  return out;
}

describe('@modelcontextprotocol/conformance against x-ipe-uiux mcp --http', () => {
  it('passes every scenario that does not need the suite’s own fixtures', async () => {
    // The suite cannot send headers: the token goes in the path.
    const server = await startHttpMcp(cleanups, ['--token-in-path']);
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-conformance-'));
    cleanups.push(() => fs.rmSync(outDir, { recursive: true, force: true }));
    const { code, output } = await runSuite(server.url.href, outDir);
    expect(output, output).toMatch(/Baseline check passed/);
    expect(code, output).toBe(0);
    const passed = [...results(outDir)].filter(([, ok]) => ok).map(([name]) => name);
    expect(passed.sort()).toEqual(
      [
        'dns-rebinding-protection',
        'logging-set-level',
        'ping',
        'prompts-list',
        'resources-list',
        'server-initialize',
        'server-sse-multiple-streams',
        'tools-list',
      ].sort(),
    );
  }, 170_000);
});
