import type { EventsSinceResult } from '#shared/commands/events-since.js';
import type { HostInfo, Progress } from '#shared/envelopes.js';
import type { Config } from '#shared/node/config.js';
import type { Logger } from '#shared/node/logger.js';

/** Where a request to the host came from: an MCP server over the bridge, or the extension itself. */
export type RequestSource = 'bridge' | 'extension';

/** What the router's caller supplies per request; the router adds the rest of HostHandlerContext. */
export interface HostContextBase {
  readonly logger: Logger;
  /** The per-user home (XIPE_UIUX_HOME or the platform default). */
  readonly home: string;
  /** config.json as it is now (re-read per request, so `install --workspace` takes effect at once). */
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly hostInfo: () => HostInfo;
  /** The workspace an MCP client announced in its hello; undefined for the extension. */
  readonly workspace: string | undefined;
  readonly source: RequestSource;
  /** Size of the request envelope's JSON as received, for payload caps. */
  readonly payloadBytes: number;
  /** Aborted when the requester goes away or the host shuts down. */
  readonly signal: AbortSignal;
}

/** The host's own requests to the extension (e.g. the PNG for `save_screenshot`). */
export interface ExtensionRequester {
  /**
   * Sends `command` to the extension and resolves with its raw result (the caller parses it).
   * Rejects with the extension's error, EXTENSION_NOT_CONNECTED, or TIMEOUT after `timeoutMs`
   * plus a margin; an abort of `signal` stops waiting.
   */
  request(
    command: string,
    params: unknown,
    options: {
      timeoutMs: number;
      signal?: AbortSignal;
      /** Told when the extension says the request waits its turn (its time limit is paused), or starts. */
      onProgress?: (progress: Progress) => void;
    },
  ): Promise<unknown>;
}

/** The capture events this host has buffered. */
export interface CaptureEventSource {
  since(afterSeq: number): EventsSinceResult;
  /** Records an event the host itself produced (a deep capture it wrote) and tells every client. */
  record?(name: string, data: unknown): void;
}

/** Images the extension staged for its next save (staged-images.ts). */
export interface StagedImageStore {
  put(id: string, bytes: Buffer): void;
  /** Handed over once; null when unknown or expired. */
  take(id: string): Buffer | null;
}

/** The narrow context every host handler gets; handlers touch nothing else (no module globals). */
export interface HostHandlerContext extends HostContextBase {
  readonly extension: ExtensionRequester;
  /** Who asked, for the capture queue's fairness and listing ("x-ipe-mcp 4242 #3", "toolbar"). */
  readonly requester?: string;
  /** Tells the asker where its request stands (a `progress` envelope under its id); the extension's progress is passed on. */
  readonly progress?: (progress: Omit<Progress, 'id' | 'type'>) => void;
  readonly events: CaptureEventSource;
  readonly images: StagedImageStore;
}

/**
 * Answers one command. `params` is unvalidated: the handler parses it with the command's schema
 * (from shared/src/commands) and throws XipeError for anything the caller should see.
 */
export type HostHandler = (params: unknown, ctx: HostHandlerContext) => Promise<unknown>;
