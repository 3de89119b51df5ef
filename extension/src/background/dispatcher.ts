import type { Request, Response } from '#shared/index.js';
import {
  COMMANDS,
  formatZodError,
  isCommandName,
  toErrorPayload,
  validationError,
  XipeError,
} from '#shared/index.js';
import type { ExtensionCommand, Handler, HandlerContext } from './handlers/types.js';

export type HandlerTable = { readonly [C in ExtensionCommand]: Handler<C> };

function isExtensionCommand(name: string, handlers: HandlerTable): name is ExtensionCommand {
  return isCommandName(name) && COMMANDS[name].handledBy === 'extension' && Object.hasOwn(handlers, name);
}

/**
 * Runs one request: looks the handler up by command name, parses params with the command's schema,
 * and always answers with a response envelope (unknown command, bad params and handler exceptions
 * become failure responses, never a dropped request).
 */
export async function dispatch(
  request: Request,
  handlers: HandlerTable,
  ctx: HandlerContext,
): Promise<Response> {
  try {
    const command = request.command;
    if (!isExtensionCommand(command, handlers)) {
      throw new XipeError(
        'VALIDATION_ERROR',
        `Unknown command '${command}' for the extension (it handles: ${Object.keys(handlers).join(', ')}).`,
        { command },
      );
    }
    const result = await runHandler(command, request.params, handlers, ctx);
    return { type: 'response', id: request.id, ok: true, result };
  } catch (err) {
    return { type: 'response', id: request.id, ok: false, error: toErrorPayload(err) };
  }
}

async function runHandler<C extends ExtensionCommand>(
  command: C,
  rawParams: unknown,
  handlers: HandlerTable,
  ctx: HandlerContext,
): Promise<unknown> {
  const spec = COMMANDS[command];
  const parsed = spec.params.safeParse(rawParams ?? {});
  if (!parsed.success) throw validationError(parsed.error, `${command} params`, rawParams ?? {});
  const handler = handlers[command] as Handler<C>;
  const result = await handler(parsed.data as Parameters<Handler<C>>[0], ctx);
  // Checked on the way out too, so a handler bug is reported here rather than by the receiver.
  const checked = spec.result.safeParse(result);
  if (!checked.success)
    throw new XipeError(
      'INTERNAL_ERROR',
      `${command} produced an invalid result: ${formatZodError(checked.error, result)}`,
    );
  return checked.data;
}
