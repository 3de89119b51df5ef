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

  it('refuses unknown arguments and a missing value', () => {
    expect(() => parseMcpArgs(['--port', '1'])).toThrow(/unknown argument/);
    expect(() => parseMcpArgs(['--workspace'])).toThrow(/needs a directory/);
  });
});
