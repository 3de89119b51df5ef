import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SaveAreaResult } from '#shared/commands/save-area.js';
import type { AreaCapture } from '#shared/deep-capture/area-capture.js';
import { XipeError } from '#shared/errors.js';
import { testCapture, testNode } from '#test/helpers/captures.js';
import { makePng } from '#test/helpers/store-fixtures.js';
import { bridgeContext } from '../../test-support/fakes.js';
import { saveAreaHandler } from './save-area.js';

/**
 * save_area with a live capture that answers in two steps (a ticket for pixels still being shot):
 * the resources are fetched while the pixels are awaited, the pixels' cuts reach their nodes, and
 * a screenshot that fails leaves nothing written.
 */

const IDEA = '018. Feature-UIUX Reference';
const TAB = { id: 5, url: 'https://site.test/page', title: 'Page' };

const FONT = Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(60, 7)]);
const CUT = makePng(2, 2, 7);
const SHOT = makePng(200, 100, 9);

function capture(): AreaCapture {
  return testCapture(
    [
      testNode({ tag: 'div', children: [1, 2], styles: { 'font-family': '"Brand"' } }),
      testNode({ tag: 'img', parent: 0, image_src: 'https://cdn.test/a.png' }),
      // A cross-origin frame: its pixels come from the screenshot, with the second step.
      testNode({
        tag: 'iframe',
        kind: 'pixels',
        parent: 0,
        pixels: { data_url: null, from_crop: true, reason: 'cross-origin frame', scale: 1 },
      }),
    ],
    {
      url: TAB.url,
      fonts: [
        {
          family: 'Brand',
          weight: '400',
          style: 'normal',
          stretch: '100%',
          unicode_range: 'U+0-10FFFF',
          src: 'https://cdn.test/f.woff2',
          format: 'woff2',
        },
      ],
      resources: [
        { type: 'image', url: 'https://cdn.test/a.png', usage: ['img'], nodes: [1] },
        { type: 'font', url: 'https://cdn.test/f.woff2', usage: ['font-face'], nodes: [] },
      ],
    },
  );
}

let ws: string;
let asked: string[];
let finishPixels: (outcome: unknown) => void;
let pixelsOutcome: Promise<unknown>;

const refs = () => path.join(ws, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');

function save() {
  const served: Record<string, Buffer> = {
    'https://cdn.test/a.png': makePng(3, 3, 3),
    'https://cdn.test/f.woff2': FONT,
  };
  const ctx = bridgeContext({
    workspace: ws,
    request: async (command, params) => {
      const p = params as Record<string, unknown>;
      asked.push(command === 'fetch_resource' ? `fetch ${String(p.url)}` : `${command} ${JSON.stringify(p)}`);
      if (command === 'capture_area') {
        return { capture: capture(), tab: TAB, pixels_ticket: 'ticket-1', timings: { engine: 40 } };
      }
      if (command === 'area_pixels') return pixelsOutcome;
      const body = served[String(p.url)];
      return body === undefined
        ? { ok: false, reason: 'HTTP 404' }
        : { ok: true, base64: body.toString('base64'), bytes: body.length, content_type: null };
    },
  });
  return saveAreaHandler({ idea_folder: IDEA, selector: '.card', area_id: 'area-4' }, ctx);
}

beforeEach(() => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'xpix-')));
  fs.mkdirSync(path.join(ws, 'x-ipe-docs', 'ideas', IDEA), { recursive: true });
  asked = [];
  pixelsOutcome = new Promise((resolve, reject) => {
    finishPixels = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
  });
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

describe('save_area with pixels that come after the capture', () => {
  it('fetches the resources while the pixels are shot, then writes them with their cuts', async () => {
    const saving = save() as Promise<SaveAreaResult>;
    await expect.poll(() => asked.filter((a) => a.startsWith('fetch')).length).toBe(2);
    expect(asked[0]).toMatch(/^capture_area /);
    expect(asked[1]).toBe('area_pixels {"ticket":"ticket-1"}');
    // Nothing is written before the pixels are there.
    expect(fs.existsSync(path.join(refs(), 'page-element-references'))).toBe(false);
    finishPixels({
      png: SHOT.toString('base64'),
      width: 200,
      height: 100,
      scale: 1,
      cuts: [{ node: 2, data_url: `data:image/png;base64,${CUT.toString('base64')}`, scale: 1 }],
      timings: { engine: 40, encoded: 900 },
    });
    const result = await saving;
    expect(result).toMatchObject({ status: 'success', area_id: 'area-4', element_count: 3 });
    expect(result.resource_count).toBe(2);
    expect(fs.readFileSync(result.files.screenshot).equals(SHOT)).toBe(true);
    const referenced = JSON.parse(fs.readFileSync(result.files.referenced_elements, 'utf8'));
    expect(referenced.static_resources.map((r: { type: string }) => r.type).sort()).toEqual([
      'font',
      'image',
    ]);
    const frame = referenced.areas[0].elements[2].element_details.resources[0];
    expect(frame).toMatchObject({ type: 'image', src: expect.stringContaining('pixels of') });
    const cutFile = path.join(path.dirname(result.files.referenced_elements), frame.local_path);
    expect(fs.readFileSync(cutFile).equals(CUT)).toBe(true);
  });

  it('writes nothing when the screenshot fails, and says why', async () => {
    const saving = save();
    await expect.poll(() => asked.length).toBe(4);
    finishPixels(new XipeError('TAB_NOT_FOUND', 'Tab 5 was closed during the capture.'));
    await expect(saving).rejects.toMatchObject({ code: 'TAB_NOT_FOUND' });
    expect(fs.existsSync(path.join(refs(), 'page-element-references'))).toBe(false);
    expect(fs.existsSync(path.join(refs(), 'screenshots', 'area-4.png'))).toBe(false);
  });

  it('refuses pixels that do not match the schema as a protocol error', async () => {
    const saving = save();
    finishPixels({ png: '', width: 0 });
    await expect(saving).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
  });
});
