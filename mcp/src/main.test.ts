import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMcpArgs } from './main.js';

describe('x-ipe-uiux mcp arguments', () => {
  it('defaults the workspace to the cwd', () => {
    expect(parseMcpArgs([], '/work/project')).toEqual({ workspace: '/work/project' });
  });

  it('resolves --workspace against the cwd, both spellings', () => {
    expect(parseMcpArgs(['--workspace', 'ws'], '/a')).toEqual({ workspace: path.resolve('/a', 'ws') });
    expect(parseMcpArgs(['--workspace=/abs/ws'], '/a')).toEqual({ workspace: '/abs/ws' });
  });

  it('takes --http PORT (0 = any free port) and refuses anything that is not a port', () => {
    expect(parseMcpArgs(['--http', '8765'], '/a')).toEqual({ workspace: '/a', http: 8765 });
    expect(parseMcpArgs(['--http=0', '--workspace', 'w'], '/a')).toEqual({ workspace: '/a/w', http: 0 });
    for (const bad of [
      ['--http'],
      ['--http', 'x'],
      ['--http', '-1'],
      ['--http', '70000'],
      ['--http', '80.5'],
    ]) {
      expect(() => parseMcpArgs(bad)).toThrow(/--http needs a port/);
    }
  });

  it('refuses unknown arguments and a missing value', () => {
    expect(() => parseMcpArgs(['--port', '1'])).toThrow(/unknown argument/);
    expect(() => parseMcpArgs(['--workspace'])).toThrow(/needs a directory/);
  });
});
