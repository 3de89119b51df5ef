import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STAGED_PREFIX } from '#shared/commands/stage-image.js';
import type { CollectedElement, Collection } from '#shared/toolbar-messages.js';
import { buildReferenceData } from '../../extension/src/background/toolbar/reference-builder.js';
import { FakeExtension } from '../helpers/fake-extension.js';
import {
  b64,
  IDEA,
  makePng,
  makeWorkspace,
  readJson,
  referenceData,
  type TempWorkspace,
} from '../helpers/store-fixtures.js';

/**
 * A toolbar session's element ids and its crop files agree (`elem-013` → `elem-013-crop.png`),
 * judged over a real host process and a real idea folder whose earlier sessions let the two counts
 * drift apart: an element saved without a crop, a gap in the ids, a crop file with no element.
 * The session is built by the worker's own builder from the host's `next_reference_ids`, its
 * images staged and saved as the toolbar does.
 */

let home: string;
let ws: TempWorkspace;
let ext: FakeExtension | null = null;

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-numbering-'));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));
afterEach(async () => {
  await ext?.dispose();
  ext = null;
  ws?.cleanup();
});

async function ok(command: string, params: unknown): Promise<Record<string, unknown>> {
  const answer = await (ext as FakeExtension).request(command, params, { timeoutMs: 30_000 });
  expect(answer, `${command}: ${JSON.stringify(answer).slice(0, 300)}`).toMatchObject({ ok: true });
  return (answer as unknown as { result: Record<string, unknown> }).result;
}

const element = (id: string, crop: Buffer | null) => ({
  id,
  selector: `#${id}`,
  tag: 'div',
  bounding_box: { x: 0, y: 0, width: 10, height: 10 },
  screenshots: { full_page: null, element_crop: crop ? b64(crop) : null },
  comment: null,
  extracted_assets: null,
});

function item(key: string, kind: CollectedElement['kind']): CollectedElement {
  return {
    key,
    kind,
    selector: kind === 'full_page' ? 'html' : `#${key}`,
    tag: kind === 'full_page' ? 'html' : 'section',
    bounding_box: { x: 0, y: 0, width: 40, height: 30 },
    page_url: 'https://example.com/',
    created_at: '2026-01-01T00:00:00.000Z',
    crop: { width: 40, height: 30 },
  };
}

describe('toolbar element ids and crop files', () => {
  it('numbers a new session past every element and crop, so each elem-NNN gets elem-NNN-crop.png', async () => {
    ws = makeWorkspace();
    fs.writeFileSync(path.join(home, 'config.json'), JSON.stringify({ workspaces: [ws.workspace] }));
    ext = await FakeExtension.start({ home });
    const refs = ws.refsDir();

    // Session 1 (an agent's): elem-001 with a crop, elem-002 without, elem-003 with one — the
    // store writes elem-001-crop.png and elem-002-crop.png.
    await ok('save_reference', {
      data: referenceData({
        elements: [
          element('elem-001', makePng(3, 3, 1)),
          element('elem-002', null),
          element('elem-003', makePng(3, 3, 2)),
        ],
      }),
    });
    // Session 2: a gap (elem-010), no crop.
    await ok('save_reference', { data: referenceData({ elements: [element('elem-010', null)] }) });
    // A crop no element names any more (its session was deleted by hand).
    fs.writeFileSync(path.join(refs, 'screenshots', 'elem-012-crop.png'), makePng(2, 2, 9));

    const ids = await ok('next_reference_ids', { idea_folder: IDEA });
    expect(ids).toEqual({ next_color: 2, next_element: 13 });

    // The toolbar's session: an element, a full page, an area — in that order, as captured.
    const collection: Collection = {
      source_url: 'https://example.com/',
      started_at: '2026-01-01T00:00:00.000Z',
      elements: [item('a', 'element'), item('b', 'full_page'), item('c', 'area')],
      colors: [],
      typography: {},
    };
    const screenshots = new Map<string, string>();
    for (const [i, e] of collection.elements.entries()) {
      const imageId = randomUUID();
      await ok('stage_image', { image_id: imageId, png_base64: makePng(40, 30, 20 + i).toString('base64') });
      screenshots.set(e.key, `${STAGED_PREFIX}${imageId}`);
    }
    const data = buildReferenceData({
      collection,
      screenshots,
      ideaFolder: IDEA,
      ids: { next_color: Number(ids.next_color), next_element: Number(ids.next_element) },
      now: new Date(),
    });
    const saved = await ok('save_reference', { data });
    const session = readJson(path.join(ws.workspace, String(saved.session_path))) as {
      elements: {
        id: string;
        selector: string;
        screenshots: { full_page: string | null; element_crop: string | null };
      }[];
    };
    // Listed in capture order; every crop carries its element's number.
    expect(session.elements.map((e) => [e.selector, e.id, e.screenshots.element_crop])).toEqual([
      ['#a', 'elem-013', 'screenshots/elem-013-crop.png'],
      ['html', 'elem-015', null],
      ['#c', 'elem-014', 'screenshots/elem-014-crop.png'],
    ]);
    expect(session.elements[1]?.screenshots.full_page).toBe('screenshots/full-page-001.png');
    for (const e of session.elements) {
      const file = e.screenshots.element_crop ?? e.screenshots.full_page;
      expect(fs.existsSync(path.join(refs, file ?? 'missing'))).toBe(true);
    }
    // The next session goes on from there.
    expect(await ok('next_reference_ids', { idea_folder: IDEA })).toEqual({
      next_color: 2,
      next_element: 16,
    });
  });
});
