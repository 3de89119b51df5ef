import { COMMANDS, type CommandName, type CommandResult } from '../../../shared/src/commands/index.js';
import { validationError, XipeError } from '../../../shared/src/errors.js';
import { formatZodError } from '../../../shared/src/validation-issues.js';

/**
 * Both ends of a command's contract as the MCP server checks it: the parameters before anything
 * is sent (so a bad call never reaches a browser), the result before a tool sees it (so a host of
 * another version cannot hand a tool something it does not expect).
 */

/** The parameters as they go on the wire (defaults applied); VALIDATION_ERROR naming the field. */
export function checkParams(command: CommandName, params: unknown): unknown {
  const parsed = COMMANDS[command].params.safeParse(params);
  if (!parsed.success) throw validationError(parsed.error, `${command} parameters`, params);
  return parsed.data;
}

/** The result, parsed with the command's schema; PROTOCOL_ERROR when it does not match. */
export function parseResult<C extends CommandName>(command: C, raw: unknown, pid: number): CommandResult<C> {
  const parsed = COMMANDS[command].result.safeParse(raw);
  if (!parsed.success) {
    throw new XipeError(
      'PROTOCOL_ERROR',
      `Host pid ${pid} returned an invalid ${command} result (${formatZodError(parsed.error, raw)}). Update the extension and x-ipe-uiux to the same version.`,
      { command, pid },
    );
  }
  return parsed.data as CommandResult<C>;
}
