import type { z } from 'zod';
import type { BrowserInfo, COMMANDS, CommandName, CommandResult } from '../../../../shared/src/index.js';

/** The narrow context every handler gets (never module globals). */
export interface HandlerContext {
  browserInfo(): Promise<BrowserInfo>;
}

/** Bridge commands the extension answers (handledBy: 'extension' in COMMANDS). */
export type ExtensionCommand = {
  [K in CommandName]: (typeof COMMANDS)[K]['handledBy'] extends 'extension' ? K : never;
}[CommandName];

export type Handler<C extends CommandName> = (
  params: z.infer<(typeof COMMANDS)[C]['params']>,
  ctx: HandlerContext,
) => Promise<CommandResult<C>>;
