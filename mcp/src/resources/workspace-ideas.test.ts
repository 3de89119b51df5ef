import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { XipeError } from '#shared/errors.js';
import { referenceDataTemplate } from './registry.js';
import { listWorkspaceIdeas, readReferenceData, readReferencedElements } from './workspace-ideas.js';

let root: string;
let ws: string;
let ideas: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-res-'));
  ws = path.join(root, 'ws');
  ideas = path.join(ws, 'x-ipe-docs', 'ideas');
  fs.mkdirSync(ideas, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function idea(name: string, opts: { merged?: string; sessions?: number } = {}): string {
  const dir = path.join(ideas, name);
  fs.mkdirSync(path.join(dir, 'uiux-references', 'sessions'), { recursive: true });
  for (let i = 1; i <= (opts.sessions ?? 0); i++) {
    fs.writeFileSync(path.join(dir, 'uiux-references', 'sessions', `ref-session-00${i}.json`), '{}');
  }
  if (opts.merged !== undefined)
    fs.writeFileSync(path.join(dir, 'uiux-references', 'reference-data.json'), opts.merged);
  return dir;
}

async function failure(promise: Promise<unknown>): Promise<XipeError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(XipeError);
  return err as XipeError;
}

describe('listWorkspaceIdeas', () => {
  it('lists idea folders in natural order with their reference state, skipping files and dot folders', async () => {
    idea('10. Later');
    idea('2. Second', { sessions: 2, merged: '{}' });
    idea('018. Feature-UIUX Reference', { sessions: 1 });
    fs.mkdirSync(path.join(ideas, '.hidden'));
    fs.writeFileSync(path.join(ideas, 'notes.md'), '# not an idea');
    expect(await listWorkspaceIdeas(ws)).toEqual([
      {
        name: '2. Second',
        has_references: true,
        session_count: 2,
        has_reference_data: true,
        has_referenced_elements: false,
      },
      {
        name: '10. Later',
        has_references: false,
        session_count: 0,
        has_reference_data: false,
        has_referenced_elements: false,
      },
      {
        name: '018. Feature-UIUX Reference',
        has_references: true,
        session_count: 1,
        has_reference_data: false,
        has_referenced_elements: false,
      },
    ]);
  });

  it('counts only ref-session-NNN.json files and follows a symlinked idea folder', async () => {
    const dir = idea('a', { sessions: 1 });
    fs.writeFileSync(path.join(dir, 'uiux-references', 'sessions', 'ref-session-x.json'), '{}');
    const outside = path.join(root, 'elsewhere');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(ideas, 'linked'));
    fs.symlinkSync(path.join(root, 'missing'), path.join(ideas, 'dangling'));
    const listed = await listWorkspaceIdeas(ws);
    expect(listed.map((i) => [i.name, i.session_count])).toEqual([
      ['a', 1],
      ['linked', 0],
    ]);
  });

  it('is empty for a workspace without x-ipe-docs/ideas', async () => {
    expect(await listWorkspaceIdeas(path.join(root, 'nowhere'))).toEqual([]);
  });
});

describe('readReferenceData', () => {
  it('returns the merged file as it is', async () => {
    const text = JSON.stringify({ version: '1.0', idea_folder: 'A b', colors: [{ id: 'color-001' }] });
    idea('A b', { merged: text });
    expect(await readReferenceData(ws, 'A b')).toBe(text);
  });

  it('says IDEA_NOT_FOUND (contract message) for a missing idea and FILE_NOT_FOUND before the first save', async () => {
    const missing = await failure(readReferenceData(ws, '099. Nope'));
    expect(missing.code).toBe('IDEA_NOT_FOUND');
    expect(missing.message).toBe(
      `Idea folder not found: 099. Nope. Looked in ${path.join(ws, 'x-ipe-docs', 'ideas')}: it has no idea folders. ` +
        'Read xipe://ideas for the idea folders of this workspace.',
    );
    idea('empty');
    const none = await failure(readReferenceData(ws, 'empty'));
    expect(none.code).toBe('FILE_NOT_FOUND');
    expect(none.message).toMatch(/save_uiux_reference/);
  });

  it.each(['..', '.', '../ws', 'a/b', 'a\\b', '/etc', 'C:evil', '', 'a\0b', ' padded'])(
    'refuses the idea name %j before touching the disk',
    async (name) => {
      expect((await failure(readReferenceData(ws, name))).code).toBe('VALIDATION_ERROR');
    },
  );

  it('refuses a symlinked reference-data.json or uiux-references, even pointing at a real file', async () => {
    const secret = path.join(root, 'secret.json');
    fs.writeFileSync(secret, '{"secret":"SECRET-OUTSIDE"}');
    const dir = idea('linked-file');
    fs.symlinkSync(secret, path.join(dir, 'uiux-references', 'reference-data.json'));
    const err = await failure(readReferenceData(ws, 'linked-file'));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message).not.toContain('SECRET-OUTSIDE');

    const other = path.join(root, 'other-refs');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'reference-data.json'), '{"secret":"SECRET-OUTSIDE"}');
    fs.mkdirSync(path.join(ideas, 'linked-dir'));
    fs.symlinkSync(other, path.join(ideas, 'linked-dir', 'uiux-references'));
    expect((await failure(readReferenceData(ws, 'linked-dir'))).code).toBe('VALIDATION_ERROR');
  });

  it('refuses a corrupt merged file with a hint instead of passing it on', async () => {
    idea('broken', { merged: '{"version":' });
    const err = await failure(readReferenceData(ws, 'broken'));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message).toMatch(/not valid JSON/);
  });
});

describe('the reference-data template', () => {
  it('decodes the idea name from the URI, and refuses encoded traversal and bad escapes', async () => {
    idea('018. Feature, v2', { merged: '{"ok":true}' });
    const ctx = { workspace: ws };
    expect(await referenceDataTemplate.read(ctx, { idea: encodeURIComponent('018. Feature, v2') })).toBe(
      '{"ok":true}',
    );
    expect((await failure(referenceDataTemplate.read(ctx, { idea: '..%2F..%2Fetc' }))).code).toBe(
      'VALIDATION_ERROR',
    );
    expect((await failure(referenceDataTemplate.read(ctx, { idea: '%2e%2e' }))).code).toBe(
      'VALIDATION_ERROR',
    );
    expect((await failure(referenceDataTemplate.read(ctx, { idea: '%E0%A4%A' }))).code).toBe(
      'VALIDATION_ERROR',
    );
  });

  it('lists only ideas that have a merged file, with URIs that round-trip', async () => {
    idea('with data', { merged: '{}' });
    idea('without');
    expect(await referenceDataTemplate.list({ workspace: ws })).toEqual([
      {
        uri: 'xipe://ideas/with%20data/reference-data',
        name: 'reference-data: with data',
        title: 'Reference data of with data',
      },
    ]);
  });
});

describe('readReferencedElements', () => {
  it('returns page-element-references/referenced-elements.json, and lists the idea as having deep captures', async () => {
    const dir = idea('deep');
    const text = JSON.stringify({ version: '3.0', areas: [] });
    fs.mkdirSync(path.join(dir, 'uiux-references', 'page-element-references'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'uiux-references', 'page-element-references', 'referenced-elements.json'),
      text,
    );
    expect(await readReferencedElements(ws, 'deep')).toBe(text);
    expect((await listWorkspaceIdeas(ws)).find((i) => i.name === 'deep')).toMatchObject({
      has_references: true,
      has_referenced_elements: true,
    });
  });

  it('says FILE_NOT_FOUND with what to call before the first capture', async () => {
    idea('no-areas');
    const err = await failure(readReferencedElements(ws, 'no-areas'));
    expect(err.code).toBe('FILE_NOT_FOUND');
    expect(err.message).toMatch(/capture_area/);
  });

  it('refuses a symlinked page-element-references folder, even pointing at real data', async () => {
    const outside = path.join(root, 'outside-refs');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'referenced-elements.json'), '{"secret":"SECRET-OUTSIDE"}');
    const dir = idea('linked-dir');
    fs.mkdirSync(path.join(dir, 'uiux-references'), { recursive: true });
    fs.symlinkSync(outside, path.join(dir, 'uiux-references', 'page-element-references'));
    const err = await failure(readReferencedElements(ws, 'linked-dir'));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message).not.toContain('SECRET-OUTSIDE');
  });
});
