import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AreaImageResult, ListAreasResult } from '#shared/commands/reference-areas.js';
import { XipeError } from '#shared/errors.js';
import { IDEA, makePng, makeWorkspace, type TempWorkspace } from '#test/helpers/store-fixtures.js';
import { bridgeContext } from '../../test-support/fakes.js';
import { areaImageHandler, listAreasHandler } from './reference-areas.js';

/**
 * list_areas / area_image (the toolbar overlay's reads): real files in a temporary idea, the
 * screenshot returned as the bytes on disk, and nothing read from outside the idea.
 */

let t: TempWorkspace;
const SHOT = makePng(40, 20, 5);

function writeAreas(areas: object[]): void {
  const dir = path.join(t.refsDir(), 'page-element-references');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'referenced-elements.json'),
    JSON.stringify({
      version: '3.0',
      source_url: 'https://site.test/p',
      timestamp: new Date().toISOString(),
      areas,
      static_resources: [],
    }),
  );
}

const area = (id: string, screenshot: string) => ({
  area_id: id,
  selected_area_bounding_box: { x: 0, y: 0, width: 20, height: 10 },
  instruction: id === 'area-1' ? 'Rebuild the card' : '',
  screenshot,
  elements: [],
});

const ctx = () =>
  bridgeContext({
    workspace: t.workspace,
    request: async () => {
      throw new Error('the extension is not asked');
    },
  });

beforeEach(() => {
  t = makeWorkspace();
  fs.mkdirSync(path.join(t.refsDir(), 'screenshots'), { recursive: true });
  fs.writeFileSync(path.join(t.refsDir(), 'screenshots', 'area-1.png'), SHOT);
});
afterEach(() => t.cleanup());

describe('list_areas and area_image', () => {
  it('lists the captured areas with their CSS size and instruction', async () => {
    writeAreas([area('area-1', 'screenshots/area-1.png'), area('area-2', 'screenshots/area-2.png')]);
    const listed = (await listAreasHandler({ idea_folder: IDEA }, ctx())) as ListAreasResult;
    expect(listed.areas).toEqual([
      {
        area_id: 'area-1',
        width: 20,
        height: 10,
        instruction: 'Rebuild the card',
        source_url: 'https://site.test/p',
      },
      { area_id: 'area-2', width: 20, height: 10, instruction: null, source_url: 'https://site.test/p' },
    ]);
  });

  it('an idea with no deep capture has no areas', async () => {
    expect(await listAreasHandler({ idea_folder: IDEA }, ctx())).toEqual({ areas: [] });
  });

  it("answers an area's screenshot as the bytes on disk, with device and CSS sizes", async () => {
    writeAreas([area('area-1', 'screenshots/area-1.png')]);
    const image = (await areaImageHandler(
      { idea_folder: IDEA, area_id: 'area-1' },
      ctx(),
    )) as AreaImageResult;
    expect(Buffer.from(image.png, 'base64').equals(SHOT)).toBe(true);
    expect(image).toMatchObject({ width: 40, height: 20, css_width: 20, css_height: 10 });
  });

  it('refuses an unknown area (naming the known ones) and a screenshot linked from outside the idea', async () => {
    const outside = path.join(t.root, 'secret.png');
    fs.writeFileSync(outside, SHOT);
    fs.symlinkSync(outside, path.join(t.refsDir(), 'screenshots', 'area-2.png'));
    writeAreas([area('area-1', 'screenshots/area-1.png'), area('area-2', 'screenshots/area-2.png')]);
    const unknown = areaImageHandler({ idea_folder: IDEA, area_id: 'area-7' }, ctx());
    await expect(unknown).rejects.toBeInstanceOf(XipeError);
    await expect(unknown).rejects.toThrow(/area-1, area-2/);
    await expect(areaImageHandler({ idea_folder: IDEA, area_id: 'area-2' }, ctx())).rejects.toThrow(
      /area_id/,
    );
    await expect(areaImageHandler({ idea_folder: '../x', area_id: 'area-1' }, ctx())).rejects.toThrow(
      /idea_folder/,
    );
  });
});
