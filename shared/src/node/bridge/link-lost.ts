import { XipeError } from '../../errors.js';

/**
 * The link to a host went away before it answered (refused, reset, closed). When the request
 * never reached the host (`maybeDelivered` false: connect refused, or the socket was already
 * closed at the write) it may be retried once on a re-discovered host. Once the request was
 * handed to the OS the host may have received and run it (an injection, a save), so it is never
 * repeated; every other error is final too.
 */
export class LinkLost extends XipeError {
  readonly maybeDelivered: boolean;

  constructor(message: string, details?: Record<string, unknown>, maybeDelivered = false) {
    super('BACKEND_UNREACHABLE', message, details);
    this.maybeDelivered = maybeDelivered;
  }
}

/**
 * No host can have received the request: none was reachable, or the link was lost before the
 * request was written. (BACKEND_UNREACHABLE is only ever raised before a request left, except by
 * a LinkLost that says it may have been delivered.)
 */
export function neverDelivered(err: unknown): boolean {
  if (!(err instanceof XipeError) || err.code !== 'BACKEND_UNREACHABLE') return false;
  return !(err instanceof LinkLost && err.maybeDelivered);
}
