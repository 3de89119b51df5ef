import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEA, makeWorkspace, referenceData, type TempWorkspace } from '#test/helpers/store-fixtures.js';
import { listIdeas } from './ideas.js';
import { saveReference } from './store.js';
import { resolveWorkspace, workspacesToList } from './workspaces.js';

describe('resolveWorkspace', () => {
  it('uses the workspace an MCP server names or announced', () => {
    expect(resolveWorkspace({ requested: '/a/ws', source: 'bridge', registered: [] })).toBe('/a/ws');
    expect(resolveWorkspace({ callerWorkspace: '/b/ws', source: 'bridge', registered: ['/c'] })).toBe(
      '/b/ws',
    );
  });

  it('lets the toolbar use only registered workspaces', () => {
    expect(resolveWorkspace({ requested: '/reg/ws/', source: 'extension', registered: ['/reg/ws'] })).toBe(
      '/reg/ws',
    );
    expect(() =>
      resolveWorkspace({ requested: '/other', source: 'extension', registered: ['/reg/ws'] }),
    ).toThrow(/workspace: expected a registered workspace \(registered: \/reg\/ws\), got "\/other"/);
    expect(resolveWorkspace({ source: 'extension', registered: ['/only'] })).toBe('/only');
  });

  it('asks to name one when none or several are registered, listing them', () => {
    expect(() => resolveWorkspace({ source: 'extension', registered: [] })).toThrow(/install --workspace/);
    expect(() => resolveWorkspace({ source: 'extension', registered: ['/a', '/b'] })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        details: expect.objectContaining({ workspaces: ['/a', '/b'] }),
      }),
    );
    // An MCP server without a workspace falls back to the same rule.
    expect(resolveWorkspace({ source: 'bridge', registered: ['/only'] })).toBe('/only');
  });

  it('refuses a relative workspace', () => {
    expect(() => resolveWorkspace({ requested: 'rel/ws', source: 'bridge', registered: [] })).toThrow(
      /absolute/,
    );
  });

  it('lists the caller workspace, else every registered one', () => {
    expect(workspacesToList({ callerWorkspace: '/w', source: 'bridge', registered: ['/a'] })).toEqual(['/w']);
    expect(
      workspacesToList({ callerWorkspace: '/w', source: 'extension', registered: ['/a', '/a/'] }),
    ).toEqual(['/a']);
  });
});

describe('listIdeas', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());

  it('lists idea folders in natural order with their reference state, skipping files and hidden entries', async () => {
    ws = makeWorkspace([IDEA, '2. second', '10. tenth', '.hidden']);
    fs.writeFileSync(path.join(ws.ideasDir, 'notes.md'), '');
    await saveReference({ workspace: ws.workspace, data: referenceData() });
    await saveReference({ workspace: ws.workspace, data: referenceData() });
    expect(await listIdeas(ws.workspace)).toEqual({
      path: ws.workspace,
      ideas: [
        { name: '2. second', has_references: false, session_count: 0 },
        { name: '10. tenth', has_references: false, session_count: 0 },
        { name: IDEA, has_references: true, session_count: 2 },
      ],
    });
  });

  it('returns no ideas for a workspace without x-ipe-docs/ideas', async () => {
    ws = makeWorkspace();
    expect(await listIdeas(ws.root)).toEqual({ path: ws.root, ideas: [] });
  });
});
