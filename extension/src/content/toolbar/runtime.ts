import {
  TOOLBAR_RESULTS,
  type ToolbarError,
  type ToolbarRequest,
  ToolbarResponse,
  type ToolbarResult,
} from '#shared/toolbar-messages.js';
import { browser } from '../../platform/browser.js';

/**
 * The toolbar's only channel: runtime messages to our own service worker. Page scripts cannot
 * use it (no `externally_connectable`), and nothing is ever read from window.postMessage.
 * Answers are parsed with the shared schemas before use.
 */

export class ToolbarFailure extends Error {
  readonly code: string;
  constructor(error: ToolbarError) {
    super(error.message);
    this.code = error.code;
  }
}

type RequestOf<T extends ToolbarRequest['type']> = Extract<ToolbarRequest, { type: T }>;

export async function send<T extends ToolbarRequest['type']>(
  request: RequestOf<T>,
): Promise<ToolbarResult<T>> {
  let raw: unknown;
  try {
    raw = await browser.runtime.sendMessage(request);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/context invalidated|Receiving end does not exist/i.test(message)) {
      throw new ToolbarFailure({
        code: 'EXTENSION_NOT_CONNECTED',
        message: 'The extension was reloaded or updated: close this toolbar and open it again.',
      });
    }
    throw new ToolbarFailure({ code: 'INTERNAL_ERROR', message });
  }
  const response = ToolbarResponse.safeParse(raw);
  if (!response.success) {
    throw new ToolbarFailure({
      code: 'PROTOCOL_ERROR',
      message: 'The extension sent an answer the toolbar cannot read.',
    });
  }
  if (!response.data.ok) throw new ToolbarFailure(response.data.error);
  const schema = TOOLBAR_RESULTS[request.type];
  const result = schema.safeParse(response.data.result);
  if (!result.success) {
    throw new ToolbarFailure({ code: 'PROTOCOL_ERROR', message: `Unexpected answer to ${request.type}.` });
  }
  return result.data as ToolbarResult<T>;
}

/**
 * Runs `work` in the toolbar's turn of the capture queue (background/toolbar/turns.ts):
 * agents' captures in this window wait meanwhile, and it waits for theirs before it starts (the
 * status line says so). Asked before the toolbar hides itself or touches the page.
 */
export async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  await send({ type: 'xipe-toolbar:turn', hold: true });
  try {
    return await work();
  } finally {
    void send({ type: 'xipe-toolbar:turn', hold: false }).catch(() => undefined);
  }
}
