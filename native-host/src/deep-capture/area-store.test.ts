import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ideaPaths, prepareIdeaDirs, type SafeDirs } from '#shared/node/idea-store/path-safety.js';
import { testCapture, testNode } from '#test/helpers/captures.js';
import { projectAhead, writeArea } from './area-store.js';

/**
 * An area's files computed ahead of the lock (while the screenshot is shot) are used only for the
 * area id they were computed for: a save that took that id meanwhile makes writeArea compute them
 * again for the next one.
 */

const IDEA = '018. Feature-UIUX Reference';
let ws: string;
let dirs: SafeDirs;

const capture = testCapture([testNode({ tag: 'div', classes: ['card'], text: 'Hello' })]);
const content = { capture, instruction: 'Rebuild', files: new Map(), pixelFiles: new Map() };
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
const write = (extra: Partial<Parameters<typeof writeArea>[0]>) =>
  writeArea({ dirs, ideaFolder: IDEA, png: PNG, areaId: null, now: new Date(), ...content, ...extra });

beforeEach(async () => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'xstore-')));
  fs.mkdirSync(path.join(ws, 'x-ipe-docs', 'ideas', IDEA), { recursive: true });
  dirs = await prepareIdeaDirs(ideaPaths(ws, IDEA), IDEA);
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

describe('writeArea with a projection computed ahead', () => {
  it('uses it when the area id is still free', async () => {
    const projected = await projectAhead({ dirs, areaId: null, ...content });
    expect(projected.areaId).toBe('area-1');
    const written = await write({ projected });
    expect(written.areaId).toBe('area-1');
    expect(fs.readFileSync(written.files.structure_html, 'utf8')).toBe(projected.clone.html);
  });

  it('computes the files again for the next id when another save took that one meanwhile', async () => {
    const projected = await projectAhead({ dirs, areaId: null, ...content });
    await write({ instruction: 'The other save' });
    const written = await write({ projected });
    expect(written.areaId).toBe('area-2');
    expect(path.basename(written.files.structure_html)).toBe('area-2-structure.html');
    const html = fs.readFileSync(written.files.structure_html, 'utf8');
    expect(html).toContain('area-2');
    expect(html).not.toContain('area-1');
    const referenced = JSON.parse(fs.readFileSync(written.files.referenced_elements, 'utf8'));
    expect(
      referenced.areas.map((a: { area_id: string; instruction: string }) => [a.area_id, a.instruction]),
    ).toEqual([
      ['area-1', 'The other save'],
      ['area-2', 'Rebuild'],
    ]);
  });
});
