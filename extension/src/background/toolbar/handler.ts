import type { z } from 'zod';
import { toErrorPayload, validationError } from '#shared/errors.js';
import {
  CAPTURE_EVENT_DATA,
  type CaptureEventName,
  TOOLBAR_MESSAGE_PREFIX,
  ToolbarRequest,
  type ToolbarResponse,
} from '#shared/toolbar-messages.js';
import { TOOLBAR_HANDLERS } from './messages/index.js';
import type { ToolbarContext, ToolbarDeps, ToolbarMessageHandler, ToolbarSender } from './types.js';

export type { ToolbarDeps, ToolbarSender } from './types.js';

/** Runtime messages this module answers: toolbar messages from our own content script's top frame. */
export function isToolbarMessage(message: unknown): boolean {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === 'string' && type.startsWith(TOOLBAR_MESSAGE_PREFIX);
}

export function createToolbarHandler(deps: ToolbarDeps) {
  const now = deps.now ?? (() => new Date());

  function context(sender: ToolbarSender): ToolbarContext {
    return {
      ...sender,
      deps,
      now,
      emit(name: CaptureEventName, pageUrl: string, data: object) {
        if (!deps.host.connected) return;
        const payload = { tab_id: sender.tabId, page_url: pageUrl, at: now().toISOString(), ...data };
        const parsed = CAPTURE_EVENT_DATA[name].safeParse(payload);
        if (parsed.success) deps.host.emit(name, parsed.data);
      },
    };
  }

  /** Parses, dispatches and wraps the answer; never throws. */
  return async function handle(message: unknown, sender: ToolbarSender): Promise<ToolbarResponse> {
    const parsed = ToolbarRequest.safeParse(message);
    if (!parsed.success) {
      return {
        ok: false,
        error: validationError(parsed.error as unknown as z.ZodError, 'toolbar message', message).toPayload(),
      };
    }
    try {
      const req = parsed.data;
      const run = TOOLBAR_HANDLERS[req.type] as ToolbarMessageHandler<typeof req.type>;
      return { ok: true, result: await run(req, context(sender)) };
    } catch (err) {
      const e = toErrorPayload(err);
      return {
        ok: false,
        error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
      };
    }
  };
}

export type ToolbarHandler = ReturnType<typeof createToolbarHandler>;
