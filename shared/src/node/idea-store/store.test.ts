import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectedSession, originalShapes } from '#test/helpers/original-shapes.js';
import {
  b64,
  IDEA,
  makePng,
  makeWorkspace,
  pngOfAbout,
  readJson,
  referenceData,
  sessionFiles,
  snapshotTree,
  type TempWorkspace,
} from '#test/helpers/store-fixtures.js';
import { DTCG_FILE } from '../../design-tokens.js';
import { SaveResult } from '../../reference-data.js';
import { saveReference } from './store.js';

const MiB = 1024 * 1024;

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace([IDEA, 'other idea']);
});
afterEach(() => ws.cleanup());

const save = (data: unknown, extra: { maxPayloadBytes?: number } = {}) =>
  saveReference({ workspace: ws.workspace, data, ...extra });

describe('saveReference', () => {
  it('saves a valid session, creates the folders and returns workspace-relative paths', async () => {
    expect(fs.existsSync(ws.refsDir())).toBe(false);
    const result = await save(referenceData());
    expect(SaveResult.parse(result)).toEqual({
      status: 'success',
      session_file: 'ref-session-001.json',
      session_number: 1,
      session_path: `x-ipe-docs/ideas/${IDEA}/uiux-references/sessions/ref-session-001.json`,
      screenshots: [],
      reference_data_path: `x-ipe-docs/ideas/${IDEA}/uiux-references/reference-data.json`,
      // Every file the save wrote is listed: the design tokens too.
      tokens_path: `x-ipe-docs/ideas/${IDEA}/uiux-references/design-tokens.tokens.json`,
      idea_folder: IDEA,
      workspace: ws.workspace,
    });
    expect(fs.existsSync(path.join(ws.workspace, String(result.tokens_path)))).toBe(true);
    for (const dir of ['sessions', 'screenshots']) {
      expect(fs.statSync(path.join(ws.refsDir(), dir)).isDirectory()).toBe(true);
    }
    const session = readJson(path.join(ws.workspace, result.session_path)) as Record<string, unknown>;
    expect(session).toMatchObject({ version: '1.0', idea_folder: IDEA, session_number: 1 });
    expect(session.elements).toEqual(referenceData().elements); // unknown keys kept
    const merged = readJson(path.join(ws.workspace, result.reference_data_path)) as Record<string, unknown>;
    expect(merged).toMatchObject({
      version: '1.0',
      idea_folder: IDEA,
      source_urls: ['https://example.com/pricing'],
    });
  });

  it('decodes base64 screenshots to PNG files and references them by path; keeps paths and null', async () => {
    const full = makePng(3, 2, 7);
    const crop = makePng(1, 1, 9);
    const data = referenceData({
      elements: [
        { id: 'elem-001', selector: 'a', screenshots: { full_page: b64(full), element_crop: b64(crop) } },
        {
          id: 'elem-002',
          selector: 'b',
          screenshots: { full_page: 'screenshots/existing.png', element_crop: null },
        },
        { id: 'elem-003', selector: 'c', screenshots: { element_crop: b64(crop) } },
      ],
    });
    const first = await save(data);
    const dir = `x-ipe-docs/ideas/${IDEA}/uiux-references/screenshots`;
    expect(first.screenshots).toEqual([
      `${dir}/full-page-001.png`,
      `${dir}/elem-001-crop.png`,
      `${dir}/elem-002-crop.png`,
    ]);
    expect(fs.readFileSync(path.join(ws.workspace, dir, 'full-page-001.png')).equals(full)).toBe(true);
    expect(fs.readFileSync(path.join(ws.workspace, dir, 'elem-002-crop.png')).equals(crop)).toBe(true);
    const session = readJson(path.join(ws.workspace, first.session_path)) as {
      elements: { screenshots: unknown }[];
    };
    expect(session.elements.map((e) => e.screenshots)).toEqual([
      { full_page: 'screenshots/full-page-001.png', element_crop: 'screenshots/elem-001-crop.png' },
      { full_page: 'screenshots/existing.png', element_crop: null },
      { element_crop: 'screenshots/elem-002-crop.png' },
    ]);
    // The next save continues each kind's numbering and never overwrites.
    const second = await save(data);
    expect(second.screenshots).toEqual([
      `${dir}/full-page-002.png`,
      `${dir}/elem-003-crop.png`,
      `${dir}/elem-004-crop.png`,
    ]);
    expect(fs.readFileSync(path.join(ws.workspace, dir, 'full-page-001.png')).equals(full)).toBe(true);
  });

  it.each(originalShapes())("saves the original producers' shape unchanged: $name", async ({ data }) => {
    const result = await save(data);
    const session = readJson(path.join(ws.workspace, result.session_path));
    // Nulls stay nulls, unknown keys stay, only base64 screenshots become the paths written.
    expect(session).toEqual(expectedSession(data, result.screenshots, result.session_number));
    for (const file of result.screenshots) {
      expect(fs.readFileSync(path.join(ws.workspace, file)).subarray(1, 4).toString('latin1')).toBe('PNG');
    }
  });

  it('accepts duplicate ids inside one session; the merged view keeps the latest', async () => {
    await save(
      referenceData({
        colors: [
          { id: 'color-001', hex: '#111111' },
          { id: 'color-002', hex: '#222222' },
          { id: 'color-001', hex: '#333333' },
        ],
        elements: [
          { id: 'elem-001', selector: 'a' },
          { id: 'elem-001', selector: 'b' },
        ],
      }),
    );
    const session = readJson(path.join(ws.refsDir(), 'sessions', 'ref-session-001.json')) as {
      colors: unknown[];
      elements: unknown[];
    };
    expect(session.colors).toHaveLength(3);
    expect(session.elements).toHaveLength(2);
    const merged = readJson(path.join(ws.refsDir(), 'reference-data.json')) as {
      colors: Array<{ id: string; hex: string }>;
      elements: Array<{ id: string; selector: string }>;
    };
    expect(merged.colors.map((c) => [c.id, c.hex])).toEqual([
      ['color-001', '#333333'],
      ['color-002', '#222222'],
    ]);
    expect(merged.elements).toEqual([{ id: 'elem-001', selector: 'b' }]);
  });

  it('keeps other screenshot keys as given but refuses a base64 image under them, writing nothing', async () => {
    const element = (screenshots: Record<string, unknown>) =>
      referenceData({ elements: [{ id: 'elem-001', selector: 'a', screenshots }] });
    const kept = await save(element({ full_page: null, thumbnail: 'screenshots/t.png', note: null }));
    const session = readJson(path.join(ws.workspace, kept.session_path)) as { elements: unknown[] };
    expect(session.elements[0]).toMatchObject({
      screenshots: { full_page: null, thumbnail: 'screenshots/t.png', note: null },
    });
    const before = snapshotTree(ws.workspace);
    await expect(save(element({ thumbnail: b64(makePng()) }))).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { issues: [expect.objectContaining({ field: 'elements.0.screenshots.thumbnail' })] },
    });
    expect(snapshotTree(ws.workspace)).toEqual(before);
  });

  it('numbers sessions by scanning, ignoring session_id, and keeps gaps (001, 003 → 004)', async () => {
    expect((await save(referenceData({ session_id: 'ref-session-050' }))).session_number).toBe(1);
    expect((await save(referenceData({ session_id: 1 }))).session_file).toBe('ref-session-002.json');
    fs.renameSync(
      path.join(ws.refsDir(), 'sessions/ref-session-002.json'),
      path.join(ws.refsDir(), 'sessions/ref-session-003.json'),
    );
    expect((await save(referenceData())).session_file).toBe('ref-session-004.json');
    expect(sessionFiles(ws.refsDir())).toEqual([
      'ref-session-001.json',
      'ref-session-003.json',
      'ref-session-004.json',
    ]);
  });

  it('rebuilds the merged view across sessions', async () => {
    await save(
      referenceData({ colors: [{ id: 'color-001', hex: '#111111' }], design_tokens: { spacing: { sm: 4 } } }),
    );
    await save(
      referenceData({
        source_url: 'https://example.com/other',
        colors: [
          { id: 'color-001', hex: '#222222' },
          { id: 'color-002', hex: '#333333' },
        ],
        elements: [{ id: 'elem-009', selector: 'footer' }],
        design_tokens: undefined,
      }),
    );
    const merged = readJson(path.join(ws.refsDir(), 'reference-data.json')) as Record<string, unknown>;
    expect(merged.colors).toEqual([
      { id: 'color-001', hex: '#222222' },
      { id: 'color-002', hex: '#333333' },
    ]);
    expect((merged.elements as { id: string }[]).map((e) => e.id)).toEqual(['elem-001', 'elem-009']);
    expect(merged.design_tokens).toEqual({ spacing: { sm: 4 } });
    expect(merged.source_urls).toEqual(['https://example.com/pricing', 'https://example.com/other']);
    expect((merged.sessions as unknown[]).length).toBe(2);
    expect(typeof merged.last_updated).toBe('string');
  });

  it('refuses a missing idea folder with the exact message and creates nothing', async () => {
    const before = snapshotTree(ws.root);
    const ideas = path.join(ws.workspace, 'x-ipe-docs', 'ideas');
    const existing = fs.readdirSync(ideas).map((name) => JSON.stringify(name));
    await expect(save(referenceData({ idea_folder: 'no such idea' }))).rejects.toMatchObject({
      code: 'IDEA_NOT_FOUND',
      // The contract's start, then where it looked, what exists there and the next step.
      message:
        `Idea folder not found: no such idea. Looked in ${ideas}: existing ideas: ${existing.join(', ')}. ` +
        'Pass one of the existing names exactly, or create the folder first (`x-ipe-uiux init --idea NAME`; the store never creates it).',
      details: { looked_in: ideas, existing_ideas: fs.readdirSync(ideas).sort() },
    });
    expect(snapshotTree(ws.root)).toEqual(before);
  });

  it('reports each validation error by field and writes nothing', async () => {
    const before = snapshotTree(ws.root);
    for (const [data, field] of [
      [referenceData({ version: '0.9' }), 'version'],
      [referenceData({ timestamp: 'soon' }), 'timestamp'],
      [referenceData({ source_url: undefined }), 'source_url'],
      [referenceData({ colors: [], elements: [], design_tokens: {} }), 'colors, elements, design_tokens'],
    ] as const) {
      await expect(save(data)).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining(field),
      });
    }
    expect(snapshotTree(ws.root)).toEqual(before);
  });

  it.each([
    ['not base64', 'base64:iVBORw0KGgo!!!!'],
    [
      'base64 with spaces',
      `base64:${makePng()
        .toString('base64')
        .replace(/(.{8})/, '$1 ')}`,
    ],
    ['not a PNG', `base64:${Buffer.from('GIF89a'.padEnd(64, 'x')).toString('base64')}`],
    ['truncated PNG', `base64:${makePng().subarray(0, 20).toString('base64')}`],
    [
      'bad base64 deep in a PNG',
      `base64:${makePng(20, 20).toString('base64').slice(0, -8)}*${'A'.repeat(7)}`,
    ],
  ])('refuses %s naming the field, with nothing written', async (_label, value) => {
    fs.mkdirSync(path.join(ws.refsDir(), 'sessions'), { recursive: true });
    const before = snapshotTree(ws.root);
    const data = referenceData({
      elements: [
        { id: 'elem-001', selector: 'a', screenshots: { full_page: b64(makePng()) } },
        { id: 'elem-002', selector: 'b', screenshots: { element_crop: value } },
      ],
    });
    await expect(save(data)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('elements.1.screenshots.element_crop'),
    });
    expect(snapshotTree(ws.root)).toEqual(before);
  });

  it.each(['../other idea', '..', '/etc', 'a/../../..', 'x\0y', `${IDEA}/..`])(
    'refuses idea_folder %j and writes nothing anywhere',
    async (idea_folder) => {
      const before = snapshotTree(ws.root);
      await expect(save(referenceData({ idea_folder }))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(snapshotTree(ws.root)).toEqual(before);
    },
  );

  it.each(['uiux-references', 'uiux-references/sessions', 'uiux-references/screenshots'])(
    'refuses a symlinked %s pointing outside and writes nothing anywhere',
    async (rel) => {
      const outside = path.join(ws.root, 'outside');
      fs.mkdirSync(path.join(outside, 'sessions'), { recursive: true });
      const link = path.join(ws.ideasDir, IDEA, rel);
      fs.mkdirSync(path.dirname(link), { recursive: true });
      if (rel !== 'uiux-references') fs.mkdirSync(path.join(ws.refsDir(), 'sessions'), { recursive: true });
      fs.rmSync(link, { recursive: true, force: true });
      fs.symlinkSync(outside, link);
      const before = snapshotTree(ws.root);
      const data = referenceData({
        elements: [{ id: 'elem-001', selector: 'a', screenshots: { full_page: b64(makePng()) } }],
      });
      await expect(save(data)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(snapshotTree(ws.root)).toEqual(before);
    },
  );

  it('accepts a 9.5 MiB save and refuses a 10.5 MiB one with PAYLOAD_TOO_LARGE', async () => {
    const sized = (bytes: number) => {
      const png = pngOfAbout(Math.floor((bytes * 3) / 4) - 4096);
      return referenceData({
        elements: [{ id: 'elem-001', selector: 'a', screenshots: { full_page: b64(png) } }],
      });
    };
    const small = sized(9.5 * MiB);
    const smallBytes = Buffer.byteLength(JSON.stringify(small));
    expect(smallBytes).toBeGreaterThan(9.3 * MiB);
    expect(smallBytes).toBeLessThan(10 * MiB);
    const ok = await save(small, { maxPayloadBytes: 10 * MiB });
    expect(ok.screenshots).toHaveLength(1);

    const big = sized(10.5 * MiB);
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(10 * MiB);
    const before = snapshotTree(ws.root);
    await expect(save(big, { maxPayloadBytes: 10 * MiB })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: expect.objectContaining({ max_bytes: 10 * MiB }),
    });
    expect(snapshotTree(ws.root)).toEqual(before);
  });

  it('reports WRITE_ERROR with the path and OS reason when sessions/ is a file, leaving existing data intact', async () => {
    const first = await save(referenceData());
    const sessionsDir = path.join(ws.refsDir(), 'sessions');
    const mergedBefore = fs.readFileSync(path.join(ws.refsDir(), 'reference-data.json'), 'utf8');
    // Replace the folder with a regular file: every write into it fails, even as root.
    fs.renameSync(sessionsDir, `${sessionsDir}.bak`);
    fs.writeFileSync(sessionsDir, 'in the way');
    const before = snapshotTree(ws.root);
    await expect(save(referenceData())).rejects.toMatchObject({
      code: 'WRITE_ERROR',
      message: expect.stringContaining(sessionsDir),
      details: expect.objectContaining({ path: sessionsDir, os_code: 'ENOTDIR' }),
    });
    expect(snapshotTree(ws.root)).toEqual(before);
    expect(fs.readFileSync(path.join(ws.refsDir(), 'reference-data.json'), 'utf8')).toBe(mergedBefore);
    expect(readJson(path.join(`${sessionsDir}.bak`, first.session_file))).toMatchObject({
      session_number: 1,
    });
  });

  it('removes the session and screenshots it wrote when a later step fails (nothing half-written)', async () => {
    await save(referenceData());
    // reference-data.json replaced by a non-empty folder: the final rename fails after the
    // screenshots and the session were written.
    const mergedFile = path.join(ws.refsDir(), 'reference-data.json');
    fs.rmSync(mergedFile);
    fs.mkdirSync(path.join(mergedFile, 'keep'), { recursive: true });
    const before = snapshotTree(ws.root);
    const data = referenceData({
      elements: [{ id: 'elem-001', selector: 'a', screenshots: { full_page: b64(makePng()) } }],
    });
    await expect(save(data)).rejects.toMatchObject({
      code: 'WRITE_ERROR',
      message: expect.stringContaining(mergedFile),
      details: expect.objectContaining({ path: mergedFile }),
    });
    expect(snapshotTree(ws.root)).toEqual(before);
  });

  it('rolls the merged view back when the step after it fails', async () => {
    await save(referenceData());
    const mergedFile = path.join(ws.refsDir(), 'reference-data.json');
    const mergedBefore = readJson(mergedFile) as { sessions: unknown[] };
    // The design-tokens file is written after the merged view: a folder in its place makes it fail.
    const tokens = path.join(ws.refsDir(), DTCG_FILE);
    fs.rmSync(tokens, { force: true });
    fs.mkdirSync(path.join(tokens, 'keep'), { recursive: true });
    await expect(save(referenceData())).rejects.toMatchObject({
      code: 'WRITE_ERROR',
      details: { path: tokens },
    });
    expect(sessionFiles(ws.refsDir())).toEqual(['ref-session-001.json']);
    const mergedAfter = readJson(mergedFile) as { sessions: unknown[] };
    expect(mergedAfter.sessions).toEqual(mergedBefore.sessions);
  });

  it('serialises saves from one process: 20 parallel saves give 001–020', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => save(referenceData())));
    expect(results.map((r) => r.session_number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    const merged = readJson(path.join(ws.refsDir(), 'reference-data.json')) as { sessions: unknown[] };
    expect(merged.sessions).toHaveLength(20);
  });
});
