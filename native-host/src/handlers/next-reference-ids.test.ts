import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxIds, nextReferenceIds } from './next-reference-ids.js';
import type { HostHandlerContext } from './types.js';

let ws: string;
const IDEA = '018. Feature-UIUX Reference';

const ctx = (workspaces: string[]): HostHandlerContext =>
  ({ source: 'extension', workspace: undefined, config: { workspaces } }) as unknown as HostHandlerContext;

beforeEach(async () => {
  ws = await fs.mkdtemp(path.join(os.tmpdir(), 'xipe-ids-'));
  await fs.mkdir(path.join(ws, 'x-ipe-docs', 'ideas', IDEA), { recursive: true });
});
afterEach(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

describe('next_reference_ids', () => {
  it('starts at 1 for an idea without references', async () => {
    expect(await nextReferenceIds({ idea_folder: IDEA }, ctx([ws]))).toEqual({
      next_color: 1,
      next_element: 1,
    });
  });

  it('continues after the highest id in the merged view and in every session', async () => {
    const refs = path.join(ws, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');
    await fs.mkdir(path.join(refs, 'sessions'), { recursive: true });
    await fs.writeFile(
      path.join(refs, 'reference-data.json'),
      JSON.stringify({ colors: [{ id: 'color-003' }], elements: [{ id: 'elem-002' }] }),
    );
    // A session not merged yet (e.g. written just before a crash) still counts.
    await fs.writeFile(
      path.join(refs, 'sessions', 'ref-session-004.json'),
      JSON.stringify({ elements: [{ id: 'elem-010' }] }),
    );
    await fs.writeFile(path.join(refs, 'sessions', 'notes.txt'), 'color-999');
    expect(await nextReferenceIds({ workspace: ws, idea_folder: IDEA }, ctx([ws]))).toEqual({
      next_color: 4,
      next_element: 11,
    });
  });

  it('starts elements past the highest element crop, so a new elem-NNN gets elem-NNN-crop.png', async () => {
    const refs = path.join(ws, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');
    await fs.mkdir(path.join(refs, 'screenshots'), { recursive: true });
    await fs.writeFile(
      path.join(refs, 'reference-data.json'),
      JSON.stringify({ elements: [{ id: 'elem-002' }] }),
    );
    for (const name of ['elem-001-crop.png', 'elem-005-crop.png', 'full-page-009.png', 'area-12.png'])
      await fs.writeFile(path.join(refs, 'screenshots', name), '');
    expect(await nextReferenceIds({ idea_folder: IDEA }, ctx([ws]))).toEqual({
      next_color: 1,
      next_element: 6,
    });
  });

  it('refuses unknown ideas, unsafe names and unregistered workspaces', async () => {
    await expect(nextReferenceIds({ idea_folder: 'nope' }, ctx([ws]))).rejects.toMatchObject({
      code: 'IDEA_NOT_FOUND',
      message: expect.stringMatching(/^Idea folder not found: nope\. Looked in /),
    });
    await expect(nextReferenceIds({ idea_folder: '../x' }, ctx([ws]))).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(
      nextReferenceIds({ workspace: '/elsewhere', idea_folder: IDEA }, ctx([ws])),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('ignores malformed ids', () => {
    expect(maxIds({ colors: [{ id: 'color-x' }, null, { id: 5 }], elements: 'no' })).toEqual({
      color: 0,
      element: 0,
    });
  });
});
