import type { Request, Response } from '#shared/envelopes.js';
import { toErrorPayload, XipeError } from '#shared/errors.js';
import type { Logger } from '#shared/node/logger.js';
import type { HostHandler, HostHandlerContext } from './handlers/types.js';
import { failure, failureOf } from './responses.js';

/**
 * Runs the host's own command handlers (for bridge clients and for the extension alike) and keeps
 * track of the ones still running, so a shutdown can let a half-done save finish and answer.
 */
export class HandlerRunner {
  private readonly inFlight = new Set<Promise<Response>>();

  constructor(
    private readonly handlers: Readonly<Record<string, HostHandler>>,
    private readonly logger: Logger,
  ) {}

  /** The response to `request`, from its handler with context `ctx`; never throws. */
  async run(request: Request, ctx: () => HostHandlerContext): Promise<Response> {
    const handler = Object.hasOwn(this.handlers, request.command)
      ? this.handlers[request.command]
      : undefined;
    if (handler === undefined) {
      return failureOf(request.id, 'INTERNAL_ERROR', `The host has no handler for '${request.command}'`);
    }
    const running = this.invoke(handler, request, ctx);
    this.inFlight.add(running);
    try {
      return await running;
    } finally {
      this.inFlight.delete(running);
    }
  }

  /** Resolves when every handler running now has finished. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async invoke(
    handler: HostHandler,
    request: Request,
    ctx: () => HostHandlerContext,
  ): Promise<Response> {
    try {
      const result = await handler(request.params, ctx());
      // `result` must be present on the wire (JSON drops undefined; receivers require the key).
      return { type: 'response', id: request.id, ok: true, result: result ?? null };
    } catch (err) {
      const payload = toErrorPayload(err);
      if (err instanceof XipeError) {
        this.logger.info('host handler failed', { command: request.command, code: payload.code });
      } else {
        this.logger.error('host handler crashed', {
          command: request.command,
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        });
      }
      return failure(request.id, payload);
    }
  }
}
