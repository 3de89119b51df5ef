import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { descriptorFileName, endpointFilePid, listDescriptorFiles } from '../endpoint-descriptor.js';
import { runtimeDir } from '../paths.js';
import { discoverHosts, scanRuntimeDir } from './discovery.js';

let home: string;
let dir: string;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xd-'));
  dir = runtimeDir(home);
  fs.mkdirSync(dir, { recursive: true });
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

function writeDescriptor(pid: number, body: unknown = undefined): string {
  const file = path.join(dir, descriptorFileName(pid));
  const descriptor = { pid, endpoint: `/x/h-${pid}.sock`, protocol: 1, host_version: '0', started_at: 'now' };
  fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body ?? descriptor));
  return file;
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
});
