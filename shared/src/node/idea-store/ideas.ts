import fs from 'node:fs/promises';
import path from 'node:path';
import type { IdeaSummary, WorkspaceIdeas } from '../../commands/list-ideas.js';
import { SESSION_FILE_PATTERN } from './numbering.js';
import { IDEAS_SUBPATH, MERGED_FILE, REFERENCES_DIR, SESSIONS_DIR } from './path-safety.js';

/** The idea folders of a workspace (read-only): what the toolbar offers as save targets. */
export async function listIdeas(workspace: string): Promise<WorkspaceIdeas> {
  const ws = path.resolve(workspace);
  const ideasDir = path.join(ws, ...IDEAS_SUBPATH);
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(ideasDir, { withFileTypes: true });
  } catch {
    return { path: ws, ideas: [] };
  }
  const ideas = await Promise.all(
    entries
      .filter((entry) => !entry.name.startsWith('.'))
      .map(async (entry): Promise<IdeaSummary | null> => {
        const ideaDir = path.join(ideasDir, entry.name);
        if (!entry.isDirectory()) {
          if (!entry.isSymbolicLink()) return null;
          const isDir = await fs.stat(ideaDir).then(
            (s) => s.isDirectory(),
            () => false,
          );
          if (!isDir) return null;
        }
        return summarize(ideaDir, entry.name);
      }),
  );
  return {
    path: ws,
    ideas: ideas
      .filter((idea): idea is IdeaSummary => idea !== null)
      .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true })),
  };
}

async function summarize(ideaDir: string, name: string): Promise<IdeaSummary> {
  const refsDir = path.join(ideaDir, REFERENCES_DIR);
  const [sessions, hasMerged] = await Promise.all([
    fs.readdir(path.join(refsDir, SESSIONS_DIR)).catch(() => [] as string[]),
    fs.lstat(path.join(refsDir, MERGED_FILE)).then(
      (s) => s.isFile(),
      () => false,
    ),
  ]);
  const sessionCount = sessions.filter((n) => SESSION_FILE_PATTERN.test(n)).length;
  return { name, has_references: hasMerged || sessionCount > 0, session_count: sessionCount };
}
