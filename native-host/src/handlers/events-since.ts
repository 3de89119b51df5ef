import { EventsSinceParams, type EventsSinceResult } from '#shared/commands/events-since.js';
import { validationError } from '#shared/errors.js';
import type { HostHandler } from './types.js';

/** `events_since`: the buffered capture events after a seq, for a client catching up. */
export const eventsSince: HostHandler = async (params, ctx): Promise<EventsSinceResult> => {
  const parsed = EventsSinceParams.safeParse(params ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'events_since params', params ?? {});
  return ctx.events.since(parsed.data.after_seq);
};
