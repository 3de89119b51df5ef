import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  descriptorFileName,
  endpointFilePid,
  listDescriptorFiles,
  socketFileName,
} from '../endpoint-descriptor.js';
import { runtimeDir } from '../paths.js';
import { discoverHosts, scanRuntimeDir } from './discovery.js';

let home: string;
let dir: string;

const servers: net.Server[] = [];

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xd-'));
  dir = runtimeDir(home);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  fs.rmSync(home, { recursive: true, force: true });
});

function writeDescriptor(pid: number, body: unknown = undefined, mode = 0o600): string {
  const file = path.join(dir, descriptorFileName(pid));
  const descriptor = {
    pid,
    endpoint: path.join(dir, socketFileName(pid)),
    protocol: 1,
    host_version: '0',
    started_at: 'now',
  };
  fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body ?? descriptor), { mode });
  fs.chmodSync(file, mode);
  return file;
}

/** A real listening socket named for `pid` in the runtime dir, with `mode`. */
async function listenAs(pid: number, mode = 0o600): Promise<void> {
  const server = net.createServer();
  servers.push(server);
  const endpoint = path.join(dir, socketFileName(pid));
  await new Promise<void>((resolve) => server.listen(endpoint, resolve));
  fs.chmodSync(endpoint, mode);
}

describe('host discovery', () => {
  it('knows the endpoint file names and nothing else', () => {
    expect(endpointFilePid('h-42.json')).toBe(42);
    expect(endpointFilePid('h-42.sock')).toBe(42);
    for (const name of ['h-42.json.tmp', 'h-.json', 'x-42.json', 'h-42.JSON', '.lock']) {
      expect(endpointFilePid(name)).toBeNull();
    }
    fs.writeFileSync(path.join(dir, 'h-7.sock'), '');
    fs.writeFileSync(path.join(dir, 'notes.json'), '{}');
    writeDescriptor(12);
    writeDescriptor(3);
    expect(listDescriptorFiles(dir)).toEqual(['h-12.json', 'h-3.json']);
    expect(listDescriptorFiles(path.join(home, 'missing'))).toEqual([]);
  });

  it('tells live hosts from dead ones and unreadable files, removing stale ones only when asked', async () => {
    await listenAs(1);
    writeDescriptor(1);
    const dead = writeDescriptor(2);
    const broken = writeDescriptor(3, '{"pid": "three"');
    const isPidAlive = (pid: number): boolean => pid === 1;

    const found = await discoverHosts(dir, { isPidAlive });
    expect(found.map((h) => [h.file, h.pidAlive, h.error?.code ?? null])).toEqual([
      ['h-1.json', true, null],
      ['h-2.json', false, 'BACKEND_UNREACHABLE'],
      ['h-3.json', false, 'PROTOCOL_ERROR'],
    ]);
    expect(found[2]?.error?.message).toContain(broken);
    expect(fs.existsSync(dead)).toBe(true);

    const scan = await scanRuntimeDir(home, { isPidAlive });
    expect(scan.live.map((d) => d.pid)).toEqual([1]);
    expect(scan.stale).toEqual([dead, broken]);

    await discoverHosts(dir, { isPidAlive, removeStale: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fs.existsSync(dead)).toBe(false);
    expect(fs.existsSync(broken)).toBe(true); // not ours to judge: its pid is unknown
  });

  it('refuses, before any connection, descriptors and sockets that are not ours alone', async () => {
    const isPidAlive = (): boolean => true;
    await listenAs(10);
    writeDescriptor(10); // the one good host
    await listenAs(11);
    writeDescriptor(11, undefined, 0o644); // descriptor others could rewrite
    await listenAs(12, 0o666);
    writeDescriptor(12); // socket others could connect to or replace
    fs.writeFileSync(path.join(dir, socketFileName(13)), '', { mode: 0o600 });
    writeDescriptor(13); // a file where the socket should be
    await listenAs(14);
    const outside = path.join(home, 'elsewhere.sock');
    writeDescriptor(14, { pid: 14, endpoint: outside, protocol: 1, host_version: '0', started_at: 'now' });
    writeDescriptor(15, {
      pid: 15,
      endpoint: path.join(dir, socketFileName(10)),
      protocol: 1,
      host_version: '0',
      started_at: 'now',
    });
    const found = await discoverHosts(dir, { isPidAlive });
    const verdicts = Object.fromEntries(found.map((h) => [h.file, h.error?.message ?? 'ok']));
    expect(verdicts).toEqual({
      'h-10.json': 'ok',
      'h-11.json': expect.stringMatching(/host descriptor .*h-11\.json has mode 644 \(expected 600/),
      'h-12.json': expect.stringMatching(/h-12\.sock is not a socket of this user's .*mode 666/),
      'h-13.json': expect.stringMatching(/h-13\.sock is not a socket of this user's \(not a socket/),
      'h-14.json': expect.stringMatching(
        /names the endpoint .*elsewhere\.sock, not .*h-14\.sock in the runtime dir/,
      ),
      'h-15.json': expect.stringMatching(/names the endpoint .*h-10\.sock, not .*h-15\.sock/),
    });
    for (const host of found.slice(1)) expect(host.error?.code).toBe('UNAUTHORIZED');
    const scan = await scanRuntimeDir(home, { isPidAlive });
    expect(scan.live.map((d) => d.pid)).toEqual([10]);
    expect(scan.unusable).toHaveLength(5);
  });

  it('refuses the whole runtime dir when others can enter it, or it is a symlink', async () => {
    fs.chmodSync(dir, 0o755);
    const loose = await scanRuntimeDir(home);
    expect(loose.refused?.message).toMatch(
      /accessible by other users \(mode 755, expected 700\): run `chmod 700/,
    );
    expect(loose.live).toEqual([]);
    fs.rmSync(dir, { recursive: true });
    const real = fs.mkdtempSync(path.join(os.tmpdir(), 'xd-real-'));
    try {
      fs.symlinkSync(real, dir);
      expect((await scanRuntimeDir(home)).refused?.message).toMatch(/not a real directory/);
    } finally {
      fs.rmSync(real, { recursive: true, force: true });
    }
  });
});
