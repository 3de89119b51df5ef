/**
 * Fault-test helper: bookkeeping around real host processes (FakeExtension) so every fault test
 * ends the processes it started and checks the invariants that must hold whatever happened —
 * stdout carried only frames, nothing crashed without a logged reason — plus small utilities for
 * bounded waits and byte-exact snapshots of a directory tree.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BridgeTestClient, FakeExtension, type FakeExtensionOptions } from './fake-extension.js';

/** Hosts and bridge clients started by one test file; `disposeAll` ends them and reports problems. */
export class HostPool {
  private readonly hosts: FakeExtension[] = [];
  private readonly clients: BridgeTestClient[] = [];

  async start(options: FakeExtensionOptions = {}): Promise<FakeExtension> {
    const ext = await FakeExtension.start(options);
    this.hosts.push(ext);
    return ext;
  }

  /** Registers a host started elsewhere (e.g. without hello) for cleanup. */
  adopt(ext: FakeExtension): FakeExtension {
    this.hosts.push(ext);
    return ext;
  }

  async client(
    ext: FakeExtension,
    options: Parameters<FakeExtension['connectClient']>[0] = {},
  ): Promise<BridgeTestClient> {
    const client = await ext.connectClient(options);
    this.clients.push(client);
    return client;
  }

  async rawClient(ext: FakeExtension, options: { hello: boolean }): Promise<BridgeTestClient> {
    const { endpoint } = await ext.descriptor();
    const client = await BridgeTestClient.connect(
      endpoint,
      options.hello ? { token: ext.token() } : { hello: false },
    );
    this.clients.push(client);
    return client;
  }

  /** Ends everything; returns one line per invariant broken (empty when all is well). */
  async disposeAll(): Promise<string[]> {
    const problems: string[] = [];
    for (const client of this.clients.splice(0)) client.socket.destroy();
    for (const ext of this.hosts.splice(0)) {
      await ext.dispose();
      for (const p of ext.stdoutProblems) problems.push(`host ${ext.pid} stdout: ${p}`);
      problems.push(...crashReports(ext));
    }
    return problems;
  }
}

/** Log entries saying the host died of an uncaught error: never acceptable in these tests. */
export function crashReports(ext: FakeExtension): string[] {
  return ext
    .logEntries()
    .filter((e) => e.msg === 'host crashed' || e.msg === 'host handler crashed')
    .map((e) => `host ${ext.pid} ${String(e.msg)}: ${String(e.error).slice(0, 300)}`);
}

/** The host's log file and its stderr together (both must stay free of secrets). */
export function allHostOutput(ext: FakeExtension): string {
  let file = '';
  try {
    file = fs.readFileSync(ext.logFile(), 'utf8');
  } catch {
    // no log file yet
  }
  return `${file}\n${ext.stderr}`;
}

/** Polls `check` until it returns true; throws after `timeoutMs` (a bound, not a timing assertion). */
export async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** Rejects when `promise` has not settled within `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Yields to the event loop so writes go out as separate chunks. */
export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Every entry under `dir` (tab-separated: type, relative path, content hash or link target), sorted: two snapshots are
 * equal only when the tree is byte-identical.
 */
export function hashTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const p = path.join(d, entry.name);
      const rel = path.relative(dir, p);
      if (entry.isSymbolicLink()) {
        out.push(`L\t${rel}\t${fs.readlinkSync(p)}`);
      } else if (entry.isDirectory()) {
        out.push(`D\t${rel}`);
        walk(p);
      } else if (entry.isFile()) {
        const digest = createHash('sha256').update(fs.readFileSync(p)).digest('hex').slice(0, 16);
        out.push(`F\t${rel}\t${digest}`);
      } else {
        out.push(`?\t${rel}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

/** Every regular file below `dir`, as paths relative to it. */
export function listFiles(dir: string): string[] {
  return hashTree(dir)
    .filter((line) => line.startsWith('F\t'))
    .map((line) => line.split('\t')[1] ?? '');
}
