import path from 'node:path';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '#shared/constants.js';
import { binDir } from '#shared/node/paths.js';

/** POSIX sh single-quoting: everything literal, a `'` becomes `'\''`. */
export const shellQuote = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`;

/** cmd.exe: inside double quotes only `%` still expands, so it is doubled. Paths cannot hold `"`. */
const batchQuote = (value: string): string => `"${value.replaceAll('%', '%%')}"`;

/**
 * The browser starts the host with a minimal environment and its own cwd, so the launcher names
 * Node and the entry file by absolute path and bakes in the home directory. The Node flags keep the
 * idle host small (see node-flags.ts).
 */
export function launcherScript(o: {
  nodePath: string;
  nodeFlags?: readonly string[];
  entry: string;
  home: string;
  windows: boolean;
}): string {
  if (o.windows) {
    return [
      '@echo off',
      'rem Written by x-ipe-uiux install: starts the native-messaging host.',
      `set "XIPE_UIUX_HOME=${o.home.replaceAll('%', '%%')}"`,
      [batchQuote(o.nodePath), ...(o.nodeFlags ?? []), batchQuote(o.entry), 'host', '%*'].join(' '),
      '',
    ].join('\r\n');
  }
  return [
    '#!/bin/sh',
    '# Written by x-ipe-uiux install: starts the native-messaging host.',
    `XIPE_UIUX_HOME=${shellQuote(o.home)}`,
    'export XIPE_UIUX_HOME',
    ['exec', shellQuote(o.nodePath), ...(o.nodeFlags ?? []), shellQuote(o.entry), 'host', '"$@"'].join(' '),
    '',
  ].join('\n');
}

export function hostManifest(launcher: string): Record<string, unknown> {
  return {
    name: NATIVE_HOST_NAME,
    description: 'X-IPE UI/UX Reference native host (writes idea folders, relays MCP calls)',
    path: launcher,
    type: 'stdio',
    allowed_origins: [EXTENSION_ORIGIN],
  };
}

export const launcherPath = (home: string, windows: boolean): string =>
  path.join(binDir(home), windows ? 'x-ipe-uiux-host.bat' : 'x-ipe-uiux-host');
