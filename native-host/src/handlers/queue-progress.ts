import type { Progress } from '#shared/envelopes.js';
import type { HostHandlerContext } from './types.js';

/**
 * A capture the host asks the extension for on a client's behalf takes its turn in the
 * extension's capture queue: it names the client (turns are fair between clients), and passes the
 * extension's word on where it waits to the client, whose own time limit then pauses too.
 */

/** The `client` param of a capture: who asked, when the host knows. */
export function requesterOf(ctx: HostHandlerContext): { client?: string } {
  return ctx.requester !== undefined ? { client: ctx.requester.slice(0, 120) } : {};
}

/** Passes the extension's progress for the host's own request on to the client that asked. */
export function passOn(ctx: HostHandlerContext): (progress: Progress) => void {
  return ({ state, message, queued_ms }) => ctx.progress?.({ state, message, queued_ms });
}
