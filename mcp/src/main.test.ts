import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IDLE_TIMEOUT_S, parseMcpArgs } from './main.js';

describe('x-ipe-uiux mcp arguments', () => {
  it('defaults the workspace to the cwd', () => {
    expect(parseMcpArgs([], '/work/project')).toEqual({ workspace: '/work/project' });
  });

  it('resolves --workspace against the cwd, both spellings', () => {
    expect(parseMcpArgs(['--workspace', 'ws'], '/a')).toEqual({ workspace: path.resolve('/a', 'ws') });
    expect(parseMcpArgs(['--workspace=/abs/ws'], '/a')).toEqual({ workspace: '/abs/ws' });
  });

  it('takes --http PORT (0 = any free port) with its options, and refuses anything that is not a port', () => {
    const http = { port: 8765, tokenInPath: false, idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_S * 1000 };
    expect(parseMcpArgs(['--http', '8765'], '/a')).toEqual({ workspace: '/a', http });
    expect(
      parseMcpArgs(['--http=0', '--workspace', 'w', '--token-in-path', '--idle-timeout', '2.5'], '/a'),
    ).toEqual({ workspace: '/a/w', http: { port: 0, tokenInPath: true, idleTimeoutMs: 2500 } });
    for (const bad of [['--http', 'x'], ['--http=-1'], ['--http', '70000'], ['--http', '80.5']]) {
      expect(() => parseMcpArgs(bad)).toThrow(/--http needs a port/);
    }
    expect(() => parseMcpArgs(['--http'])).toThrow(/--http needs a value/);
    expect(() => parseMcpArgs(['--http', '1', '--idle-timeout', '0'])).toThrow(
      /--idle-timeout needs a number/,
    );
  });

  it('refuses HTTP-only options without --http, unknown options, a missing value and positionals', () => {
    expect(() => parseMcpArgs(['--token-in-path'])).toThrow(/only applies with --http/);
    expect(() => parseMcpArgs(['--idle-timeout', '5'])).toThrow(/only applies with --http/);
    expect(() => parseMcpArgs(['--port', '1'])).toThrow(/unknown option --port/);
    expect(() => parseMcpArgs(['--workspace'])).toThrow(/--workspace needs a value/);
    expect(() => parseMcpArgs(['--workspace='])).toThrow(/--workspace needs a value/);
    expect(() => parseMcpArgs(['extra'])).toThrow(/unexpected argument 'extra'/);
  });

  it('answers help for --help and -h, whatever else is given', () => {
    expect(parseMcpArgs(['--help'])).toBe('help');
    expect(parseMcpArgs(['--nonsense', '-h'])).toBe('help');
  });
});
