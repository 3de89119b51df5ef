import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCompare } from './compare.js';

let home: string;
let out: string[];
let err: string[];

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'cmp-'));
  out = [];
  err = [];
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const io = () => ({
  stdout: (t: string) => out.push(t),
  stderr: (t: string) => err.push(t),
  cwd: home,
  home,
});

describe('x-ipe-uiux compare', () => {
  it('exits 2 with the tool-shaped error for bad arguments, before looking for a browser', async () => {
    expect(
      await runCompare(['--idea', 'x', '--area', 'area-1', '--file', 'a.html', '--score', 'beauty'], io()),
    ).toBe(2);
    expect(JSON.parse(out.join(''))).toMatchObject({
      error: 'VALIDATION_ERROR',
      tool_name: 'compare_with_reference',
    });
    out = [];
    expect(await runCompare(['--idea', 'x', '--area', 'area-1', '--url', 'https://example.com/'], io())).toBe(
      2,
    );
    expect(JSON.parse(out.join('')).message).toMatch(/url.*localhost or 127\.0\.0\.1/);
    expect(
      await runCompare(['--idea', 'x', '--area', 'area-1', '--file', 'a.html', '--min', '2'], io()),
    ).toBe(2);
    expect(await runCompare(['--bogus'], io())).toBe(2);
  });

  it('exits 2 and says what to run when no browser is connected', async () => {
    expect(await runCompare(['--idea', 'x', '--area', 'area-1', '--file', 'a.html'], io())).toBe(2);
    expect(JSON.parse(out.join(''))).toMatchObject({ error: 'BACKEND_UNREACHABLE' });
    expect(err.join('')).toMatch(/x-ipe-uiux start/);
  });

  it('prints its help', async () => {
    expect(await runCompare(['--help'], io())).toBe(0);
    expect(out.join('')).toMatch(/--score.*--min/s);
  });
});
