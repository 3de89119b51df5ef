import fs from 'node:fs';
import { tokenPath } from '#shared/node/paths.js';
import { tokenFileProblem } from '#shared/node/token.js';
import type { CheckResult, DoctorDeps } from './types.js';

/** The bridge's shared secret exists, is not empty and is the user's alone. */
export function checkToken(deps: DoctorDeps): CheckResult {
  const title = 'token present with safe permissions';
  const file = tokenPath(deps.home);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return {
      id: 'token',
      title,
      status: 'fail',
      detail: `${file} is missing`,
      fix: 'Run `x-ipe-uiux install` (it creates the token).',
    };
  }
  if (fs.readFileSync(file, 'utf8').trim() === '') {
    return {
      id: 'token',
      title,
      status: 'fail',
      detail: `${file} is empty`,
      fix: `Delete ${file} and run \`x-ipe-uiux install\`.`,
    };
  }
  if (deps.platform.platform !== 'win32') {
    const uid = deps.uid ?? (typeof process.getuid === 'function' ? process.getuid() : stat.uid);
    // The same rule the host and the MCP server apply when they read the token.
    const problem = tokenFileProblem(stat, uid);
    if (problem?.kind === 'foreign-owner') {
      return {
        id: 'token',
        title,
        status: 'fail',
        detail: `${file} is owned by uid ${problem.owner}, not ${uid}: the host and the MCP server refuse it`,
        fix: `Delete ${file} (as its owner) and run \`x-ipe-uiux install\` as yourself.`,
      };
    }
    if (problem?.kind === 'loose-mode') {
      return {
        id: 'token',
        title,
        status: 'fail',
        detail:
          `${file} is readable by others (mode ${problem.mode.toString(8)}); the host and the MCP server ` +
          'reset it to 0600 when they next read it',
        fix: `chmod 600 '${file}'`,
      };
    }
  }
  return { id: 'token', title, status: 'ok', detail: `${file} (0600)` };
}
