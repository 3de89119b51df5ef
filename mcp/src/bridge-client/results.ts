import { COMMANDS, type CommandName, type CommandResult } from '#shared/commands/index.js';
import { XipeError } from '#shared/errors.js';
import { formatZodError } from '#shared/validation-issues.js';

/**
 * The MCP server receives a command's result, so it parses it before a tool sees it (a host of
 * another version cannot hand a tool something it does not expect). It does not parse the
 * parameters it sends: a tool builds them from arguments it has just parsed with the same field
 * schemas, and their receivers parse them (the host, and the extension for the commands it answers:
 * docs/architecture.md, "Who parses what").
 */

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
