import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SaveScreenshotResult } from '#shared/commands/save-screenshot.js';
import { XipeError } from '#shared/errors.js';
import { bridgeContext } from '../../test-support/fakes.js';
import { ideaScreenshotName, saveScreenshotHandler } from './save-screenshot.js';
import type { HostHandlerContext } from './types.js';

const IDEA = '018. Feature-UIUX Reference';

/** A valid 3×2 PNG (signature, IHDR, IDAT, IEND). */
function png(width = 3, height = 2): Buffer {
  const b = Buffer.alloc(8 + 25 + 12);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

const TAB = { id: 5, url: 'https://x.test/', title: 'X' };
let ws: string;
let asked: Array<{ command: string; params: unknown }>;
let answer: () => unknown;

function ctx(): HostHandlerContext {
  return bridgeContext({
    workspace: ws,
    request: async (command, params) => {
      asked.push({ command, params });
      return answer();
    },
  });
}

const save = (params: unknown): Promise<SaveScreenshotResult> =>
  saveScreenshotHandler(params, ctx()) as Promise<SaveScreenshotResult>;

beforeEach(() => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'xshot-')));
  fs.mkdirSync(path.join(ws, 'x-ipe-docs', 'ideas', IDEA), { recursive: true });
  asked = [];
  answer = () => ({ png: png().toString('base64'), width: 3, height: 2, tab: TAB, scale: 1 });
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

describe('save_screenshot', () => {
  it('asks the extension for the shot and writes it where the agent said', async () => {
    const result = await saveScreenshotHandler(
      { mode: 'element', selector: 'h1', url_contains: 'x.test', output_path: 'a/b.png' },
      ctx(),
    );
    expect(asked).toEqual([
      {
        command: 'capture_screenshot',
        params: { mode: 'element', selector: 'h1', target: { url_contains: 'x.test' } },
      },
    ]);
    expect(result).toEqual({
      path: path.join(ws, 'a', 'b.png'),
      relative_path: 'a/b.png',
      width: 3,
      height: 2,
      bytes: png().length,
      mode: 'element',
      tab: TAB,
    });
    expect(fs.readFileSync(path.join(ws, 'a', 'b.png')).equals(png())).toBe(true);
  });

  it('numbers shots in an idea folder by kind and never overwrites', async () => {
    const dir = path.join(ws, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references', 'screenshots');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'elem-003-crop.png'), 'old');
    const a = await save({ mode: 'element', selector: 'h1', idea_folder: IDEA });
    const b = await save({ mode: 'full_page', idea_folder: IDEA });
    const c = await save({ idea_folder: IDEA });
    expect([a.path, b.path, c.path].map((p) => path.basename(p))).toEqual([
      'elem-004-crop.png',
      'full-page-001.png',
      'viewport-001.png',
    ]);
    expect(fs.readFileSync(path.join(dir, 'elem-003-crop.png'), 'utf8')).toBe('old');
    expect(ideaScreenshotName('element', 1000)).toBe('elem-1000-crop.png');
  });

  it('writes to x-ipe-docs/screenshots by default, and adds base64 only when asked and small', async () => {
    const first = await save({ return_base64: true });
    expect(first).toMatchObject({
      relative_path: 'x-ipe-docs/screenshots/screenshot-001.png',
      base64: png().toString('base64'),
    });
    const second = await save({});
    expect(second.relative_path).toBe('x-ipe-docs/screenshots/screenshot-002.png');
    expect(second.base64).toBeUndefined();
    const big = Buffer.concat([png(), Buffer.alloc(300 * 1024)]);
    answer = () => ({ png: big.toString('base64'), width: 3, height: 2, tab: TAB, scale: 1 });
    const third = await save({ return_base64: true });
    expect(third.base64).toBeUndefined();
    expect(third.base64_omitted).toMatch(/over the 262144-byte limit/);
  });

  it('refuses bad destinations before asking the browser', async () => {
    for (const params of [
      { output_path: '../out.png' },
      { output_path: 'x.jpg' },
      { idea_folder: '../x' },
      { output_path: 'a.png', idea_folder: IDEA },
      { mode: 'element' },
    ]) {
      await expect(saveScreenshotHandler(params, ctx())).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    await expect(saveScreenshotHandler({ idea_folder: 'Missing' }, ctx())).rejects.toMatchObject({
      code: 'IDEA_NOT_FOUND',
      message: expect.stringMatching(/^Idea folder not found: Missing\. Looked in /),
    });
    expect(asked).toEqual([]);
  });

  it('passes the extension’s errors on and refuses a result that is not a PNG', async () => {
    answer = () => {
      throw new XipeError('TAB_NOT_FOUND', 'No tab with id 9');
    };
    await expect(saveScreenshotHandler({ tab_id: 9 }, ctx())).rejects.toMatchObject({
      code: 'TAB_NOT_FOUND',
    });
    answer = () => ({
      png: Buffer.from('not a png at all, clearly').toString('base64'),
      width: 1,
      height: 1,
      tab: TAB,
      scale: 1,
    });
    await expect(saveScreenshotHandler({}, ctx())).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    answer = () => ({ nope: true });
    await expect(saveScreenshotHandler({}, ctx())).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
  });
});
