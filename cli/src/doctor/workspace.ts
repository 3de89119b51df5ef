import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '#shared/node/config.js';
import { DEFAULT_FIRST_IDEA } from '../first-idea.js';
import type { CheckResult, DoctorDeps } from './types.js';

/** The project has x-ipe-docs/ideas with an idea folder, and is registered for the toolbar. */
export function checkWorkspace(deps: DoctorDeps): CheckResult {
  const title = 'workspace has x-ipe-docs/ideas';
  const ideas = path.join(deps.workspace, 'x-ipe-docs', 'ideas');
  let folders: string[];
  try {
    folders = fs
      .readdirSync(ideas, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return {
      id: 'workspace',
      title,
      status: 'fail',
      detail: `${ideas} does not exist`,
      fix: `Run doctor in your project (or pass --workspace DIR), or create the first idea folder there: x-ipe-uiux init --idea '${DEFAULT_FIRST_IDEA}'`,
    };
  }
  let registered = true;
  try {
    registered = loadConfig(deps.home).workspaces.includes(path.resolve(deps.workspace));
  } catch {
    registered = false;
  }
  const note = registered
    ? ''
    : '; not registered for the toolbar yet (`x-ipe-uiux init` in the project adds it)';
  if (folders.length === 0) {
    return {
      id: 'workspace',
      title,
      status: 'warn',
      detail: `${ideas} has no idea folders${note}`,
      fix: `x-ipe-uiux init --idea '${DEFAULT_FIRST_IDEA}' (in ${deps.workspace})`,
    };
  }
  return {
    id: 'workspace',
    title,
    status: 'ok',
    detail: `${ideas} (${folders.length} idea folder(s))${note}`,
  };
}
