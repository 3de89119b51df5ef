import { type Envelope, RequestId, type Response } from '#shared/envelopes.js';
import { type ErrorCode, type ErrorPayload, toErrorPayload, XipeError } from '#shared/errors.js';
import type { Logger } from '#shared/node/logger.js';

/** Failure responses, and sending that never throws at the router: a message too big to frame
 * becomes a failure the peer can read, a gone peer is only logged. */

export function failure(id: RequestId, error: ErrorPayload): Response {
  return { type: 'response', id, ok: false, error };
}

export function failureOf(
  id: RequestId,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): Response {
  return failure(id, new XipeError(code, message, details).toPayload());
}

/** The id of something that looks like a request, so even an invalid one gets an answer. */
export function requestIdOf(raw: unknown): RequestId | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const record = raw as Record<string, unknown>;
  if (record.type !== 'request') return null;
  const id = RequestId.safeParse(record.id);
  return id.success ? id.data : null;
}

interface Port {
  send(message: Envelope): void;
}

/** Sends a response to a bridge client; one it cannot carry becomes PAYLOAD_TOO_LARGE. */
export function sendToClient(
  client: Port & { readonly id: number },
  response: Response,
  logger: Logger,
): void {
  try {
    client.send(response);
  } catch (err) {
    logger.warn('could not send a response to a bridge client', {
      client: client.id,
      error: (err as Error).message,
    });
    try {
      client.send(
        failureOf(
          response.id,
          'PAYLOAD_TOO_LARGE',
          `The response could not be sent: ${(err as Error).message}`,
        ),
      );
    } catch {
      // the client is gone; nothing more to do
    }
  }
}

/** Sends a message to the extension; a response it cannot carry becomes that error's failure. */
export function sendToExtension(extension: Port, message: Envelope, logger: Logger): void {
  try {
    extension.send(message);
  } catch (err) {
    logger.warn('could not send a message to the extension', { error: (err as Error).message });
    const id = message.type === 'response' ? message.id : null;
    if (id !== null) {
      try {
        extension.send(failure(id, toErrorPayload(err)));
      } catch {
        // nothing more we can do on this link
      }
    }
  }
}
