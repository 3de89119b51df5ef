import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '#shared/node/command-line.js';
import { registerWorkspace } from '#shared/node/config.js';
import { IDEAS_SUBPATH, listIdeaFolders } from '#shared/node/idea-store/path-safety.js';
import { ideaFolderProblem } from '#shared/reference-data.js';

/**
 * The project side of `x-ipe-uiux init`: what `doctor` checks and a first save needs. The store
 * never creates an idea folder (DESIGN §4), so init is where a person creates the first one: named
 * with `--idea NAME`, or asked on a terminal when the project has none. The workspace is
 * registered in config.json so the toolbar can save into it.
 */

export const DEFAULT_FIRST_IDEA = '001. First idea';

export interface ProjectSetup {
  /** The idea folder created now, or null. */
  created: string | null;
  /** Idea folders the project had already. */
  existing: string[];
  /** What was done or is left to do, one line each. */
  lines: string[];
}

/** Throws a UsageError unless `name` is one plain folder name (the store's own rule). */
export function checkIdeaName(name: string): string {
  const problem = ideaFolderProblem(name);
  if (problem !== null) throw new UsageError(`--idea: expected ${problem}, got ${JSON.stringify(name)}`);
  return name;
}

/**
 * Registers `workspace` and makes sure it has an idea folder. `idea`: create that one (kept when it
 * exists). Otherwise, when there is none yet, `ask` (a terminal) offers to create one; without a
 * terminal the last line says how.
 */
export async function setUpProject(options: {
  workspace: string;
  home: string;
  idea: string | undefined;
  ask: ((question: string) => Promise<string>) | null;
}): Promise<ProjectSetup> {
  const ideasDir = path.join(options.workspace, ...IDEAS_SUBPATH);
  const existing = listIdeaFolders(ideasDir);
  const lines: string[] = [];
  let name = options.idea;
  if (name === undefined && existing.length === 0 && options.ask !== null) {
    const answer = (
      await options.ask(
        `Create your first idea folder in ${ideasDir}? Name it, or answer n [${DEFAULT_FIRST_IDEA}] `,
      )
    ).trim();
    if (!/^no?$/i.test(answer)) name = checkIdeaName(answer === '' ? DEFAULT_FIRST_IDEA : answer);
  }
  let created: string | null = null;
  if (name !== undefined) {
    const dir = path.join(ideasDir, checkIdeaName(name));
    if (existing.includes(name)) lines.push(`idea: ${dir} exists already`);
    else {
      fs.mkdirSync(dir, { recursive: true });
      created = name;
      lines.push(`idea: created ${dir}`);
    }
  } else if (existing.length === 0) {
    lines.push(
      `idea: ${ideasDir} has no idea folder yet; run \`x-ipe-uiux init --idea "${DEFAULT_FIRST_IDEA}"\` (saves need one)`,
    );
  }
  registerWorkspace(options.home, options.workspace);
  lines.push(`workspace: registered ${options.workspace} for the toolbar (in ${options.home}/config.json)`);
  return { created, existing, lines };
}
