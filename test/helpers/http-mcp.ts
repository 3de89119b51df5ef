import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import { CLI_BIN } from './fake-extension.js';
import { makeWorkspace } from './store-fixtures.js';

/** `x-ipe-uiux mcp --http 0` as a real process, in its own workspace and XIPE_UIUX_HOME. */
export interface RunningHttpMcp {
  child: ChildProcess;
  /** The URL it printed (with the secret path segment under --token-in-path). */
  url: URL;
  home: string;
  workspace: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts the server; `cleanups` gets what stops it and removes its folders. */
export async function startHttpMcp(
  cleanups: Array<() => Promise<void> | void>,
  extraArgs: readonly string[] = [],
): Promise<RunningHttpMcp> {
  const ws = makeWorkspace();
  cleanups.push(() => ws.cleanup());
  const home = path.join(ws.root, 'home');
  const child = spawn(
    process.execPath,
    [CLI_BIN, 'mcp', '--http', '0', '--workspace', ws.workspace, ...extraArgs],
    { env: { ...process.env, XIPE_UIUX_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const listening = /listening on (http:\/\/\S+)/;
  await expect.poll(() => listening.exec(stderr)?.[1], { timeout: 20_000 }).toBeDefined();
  const url = new URL(listening.exec(stderr)?.[1] ?? '');
  return { child, url, home, workspace: ws.workspace, stdout: () => stdout, stderr: () => stderr, exited };
}
