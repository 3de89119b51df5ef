import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  configPath,
  endpointDescriptorPath,
  endpointPath,
  logsDir,
  MAX_SOCKET_PATH_BYTES,
  runtimeDir,
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
  it('keeps the runtime dir under a short home', () => {
    expect(runtimeDir('/tmp/h', 'linux')).toBe('/tmp/h/run');
    expect(endpointPath('/tmp/h', 1234, 'linux')).toBe('/tmp/h/run/h-1234.sock');
    expect(endpointDescriptorPath('/tmp/h', 1234, 'linux')).toBe('/tmp/h/run/h-1234.json');
  });

  it('moves to a short /tmp dir when the home is too long for a socket path', () => {
    const longHome = `/home/someone/${'very-long-directory-name/'.repeat(6)}x-ipe-uiux`;
    const dir = runtimeDir(longHome, 'linux');
    expect(dir.startsWith('/tmp/xipe-')).toBe(true);
    const socket = endpointPath(longHome, 4194304, 'linux');
    expect(Buffer.byteLength(socket)).toBeLessThan(MAX_SOCKET_PATH_BYTES);
    // deterministic: every process computing it from the same home agrees
    expect(runtimeDir(longHome, 'linux')).toBe(dir);
    expect(runtimeDir(`${longHome}2`, 'linux')).not.toBe(dir);
    expect(endpointDescriptorPath(longHome, 7, 'linux')).toBe(path.join(dir, 'h-7.json'));
  });

  it('counts bytes, not characters, when deciding', () => {
    const home = `/tmp/${'é'.repeat(40)}`; // 45 chars, 85 bytes
    expect(runtimeDir(home, 'linux').startsWith('/tmp/xipe-')).toBe(true);
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
