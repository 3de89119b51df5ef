import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  configPath,
  endpointDescriptorPath,
  endpointPath,
  logsDir,
  MAX_SOCKET_PATH_BYTES,
  recordedRuntimeDir,
  runtimeDir,
  runtimeDirCandidates,
  runtimeDirRecordPath,
  tokenPath,
  xipeHome,
} from './paths.js';

describe('xipeHome', () => {
  it('uses XIPE_UIUX_HOME when set (resolved to an absolute path)', () => {
    expect(xipeHome({ XIPE_UIUX_HOME: '/tmp/xipe-test' }, 'linux')).toBe('/tmp/xipe-test');
    expect(xipeHome({ XIPE_UIUX_HOME: 'rel/home' }, 'linux')).toBe(path.resolve('rel/home'));
  });

  it('falls back to the platform config dir', () => {
    expect(xipeHome({ HOME: '/home/u' }, 'linux')).toBe('/home/u/.config/x-ipe-uiux');
    expect(xipeHome({ HOME: '/home/u', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe('/xdg/x-ipe-uiux');
    expect(xipeHome({ HOME: '/Users/u' }, 'darwin')).toBe('/Users/u/Library/Application Support/x-ipe-uiux');
    expect(xipeHome({ HOME: '/h', XIPE_UIUX_HOME: '' }, 'linux')).toBe('/h/.config/x-ipe-uiux');
  });

  it('uses APPDATA on Windows', () => {
    expect(xipeHome({ HOME: 'C:\\Users\\u', APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32')).toBe(
      path.join('C:\\Users\\u\\AppData\\Roaming', 'x-ipe-uiux'),
    );
  });
});

describe('runtimeDir / endpointPath', () => {
  const noXdg = {};
  it('keeps the runtime dir under a short home', () => {
    expect(runtimeDir('/tmp/h', 'linux', noXdg)).toBe('/tmp/h/run');
  });

  it('prefers $XDG_RUNTIME_DIR, one folder per home, then <home>/run', () => {
    const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
    const [xdg, inHome] = runtimeDirCandidates('/tmp/h', env, 'linux');
    expect(xdg).toMatch(/^\/run\/user\/1000\/xipe-[0-9a-f]{12}$/);
    expect(inHome).toBe('/tmp/h/run');
    expect(runtimeDirCandidates('/tmp/h2', env, 'linux')[0]).not.toBe(xdg);
    expect(runtimeDir('/tmp/h', 'linux', env)).toBe(xdg);
    // A relative value is not a runtime dir (the XDG spec says to ignore it).
    expect(runtimeDirCandidates('/tmp/h', { XDG_RUNTIME_DIR: 'run/user' }, 'linux')).toEqual(['/tmp/h/run']);
  });

  it('has no candidate of its own when the home is too long for a socket path and there is no XDG dir', () => {
    const longHome = `/home/someone/${'very-long-directory-name/'.repeat(6)}x-ipe-uiux`;
    expect(runtimeDirCandidates(longHome, noXdg, 'linux')).toEqual([]);
    const [xdg] = runtimeDirCandidates(longHome, { XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux');
    expect(Buffer.byteLength(path.join(xdg ?? '', 'h-4194304.sock'))).toBeLessThanOrEqual(
      MAX_SOCKET_PATH_BYTES,
    );
  });

  it('counts bytes, not characters, when deciding', () => {
    const home = `/tmp/${'é'.repeat(40)}`; // 45 chars, 85 bytes
    expect(runtimeDirCandidates(home, noXdg, 'linux')).toEqual([]);
  });

  it('follows the dir recorded in the home, whatever this environment would choose', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'xp-'));
    try {
      fs.writeFileSync(runtimeDirRecordPath(home), JSON.stringify({ dir: '/tmp/xipe-0-abc' }), {
        mode: 0o600,
      });
      expect(recordedRuntimeDir(home)).toBe('/tmp/xipe-0-abc');
      expect(runtimeDir(home, 'linux', { XDG_RUNTIME_DIR: '/run/user/1000' })).toBe('/tmp/xipe-0-abc');
      expect(endpointPath(home, 7, 'linux')).toBe('/tmp/xipe-0-abc/h-7.sock');
      expect(endpointDescriptorPath(home, 7, 'linux')).toBe('/tmp/xipe-0-abc/h-7.json');
      for (const bad of ['{"dir":"relative/run"}', '{"dir":"/a/../b"}', 'not json', '{}']) {
        fs.writeFileSync(runtimeDirRecordPath(home), bad);
        expect(recordedRuntimeDir(home), bad).toBeNull();
      }
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('uses a named pipe per home and pid on Windows', () => {
    const pipe = endpointPath('C:\\Users\\u\\AppData\\Roaming\\x-ipe-uiux', 99, 'win32');
    expect(pipe).toMatch(/^\\\\\.\\pipe\\xipe-uiux-[0-9a-f]{12}-99$/);
    expect(endpointPath('C:\\other', 99, 'win32')).not.toBe(pipe);
    expect(runtimeDir('C:\\h', 'win32')).toBe(path.join('C:\\h', 'run'));
  });
});

describe('home files', () => {
  it('keeps token, config and logs in the home', () => {
    expect(tokenPath('/h')).toBe('/h/token');
    expect(configPath('/h')).toBe('/h/config.json');
    expect(logsDir('/h')).toBe('/h/logs');
  });
});
