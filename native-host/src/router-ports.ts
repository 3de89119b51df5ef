import type { CommandSpec } from '#shared/commands/index.js';
import type { Envelope, HostInfo, Request, Response } from '#shared/envelopes.js';
import type { Logger } from '#shared/node/logger.js';
import type { ExtensionRequests } from './extension-requests.js';
import type { HostContextBase, HostHandler, RequestSource } from './handlers/types.js';

/** What the router is wired to: the I/O side (bridge server, native link) implements these. */

/** One authenticated bridge client, as the router sees it. */
export interface ClientPort {
  readonly id: number;
  /** For logs: the name and pid the client gave in its hello. */
  readonly label: string;
  readonly workspace: string | undefined;
  /** Throws when the message cannot be framed (over the bridge cap). */
  send(message: Envelope): void;
}

/** The native link to the extension. */
export interface ExtensionPort {
  /** Throws XipeError PAYLOAD_TOO_LARGE when the message cannot be carried even in chunks. */
  send(message: Envelope): void;
}

export interface RouterOptions {
  logger: Logger;
  extension: ExtensionPort;
  handlers: Readonly<Record<string, HostHandler>>;
  /** Builds a handler context from the per-request parts; the rest (home, config…) is the caller's. */
  context: (request: RequestContextParts) => HostContextBase;
  hostInfo: () => HostInfo;
  /** Called after a fatal handshake failure on the native link has been answered. */
  onFatal: (reason: string) => void;
  commands?: Readonly<Record<string, CommandSpec>>;
  /** Added to a request's timeout_ms so the extension's own, more precise TIMEOUT wins the race. */
  relayMarginMs?: number;
  /** Used when a request carries no timeout_ms. */
  defaultTimeoutMs?: number;
  /** How many capture events the host keeps for clients that connect later. */
  eventCapacity?: number;
}

export interface RequestContextParts {
  source: RequestSource;
  workspace: string | undefined;
  payloadBytes: number;
  signal: AbortSignal;
}

/**
 * What the router's three sides (router-extension.ts, router-clients.ts, router-broadcast.ts)
 * share; router.ts builds it. Not for the I/O side.
 */
export interface RouterCore {
  readonly options: RouterOptions;
  readonly requests: ExtensionRequests;
  /** True once the host stops: nothing is routed any more. */
  isStopped(): boolean;
  /** The command's spec, or undefined for a name that is not a command. */
  spec(command: string): CommandSpec | undefined;
  unknownCommand(request: Request): Response;
  /** Runs a host handler for `request` (for `client`, when a bridge client asked); its answer, a failure included. */
  runHandler(request: Request, parts: RequestContextParts, client?: ClientPort): Promise<Response>;
}
