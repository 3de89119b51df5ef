import type {
  BrowserInfo,
  CommandName,
  CommandParams,
  CommandResult,
  ErrorPayload,
  HostInfo,
  Progress,
} from '#shared/index.js';
import type { CaptureBatch, WaitOptions } from './capture-inbox.js';

/**
 * What tools may ask of the bridge (the MCP server's side of the host links). Tools depend on this
 * interface only; `bridge-client.ts` implements it over the hosts' sockets, unit tests fake it.
 */
export interface BridgeClient {
  /**
   * Every reachable host after a cheap re-discovery (readdir + live connections reused). Throws
   * BACKEND_UNREACHABLE when none is reachable. Host info is refreshed for hosts whose extension
   * was not connected at the last look, so `info.extension` is current enough to route by browser.
   */
  hosts(options?: { signal?: AbortSignal }): Promise<HostSummary[]>;
  /**
   * Sends one command to one host and returns its parsed result. With `browser`, the host whose
   * extension reports that browser id; without, the only host (or the only one with an extension).
   * Several candidates and no `browser` → VALIDATION_ERROR naming `browser`. Retries once after a
   * connection error; never waits longer than the timeout (TIMEOUT).
   */
  request<C extends CommandName>(
    command: C,
    params: CommandParams<C>,
    options?: RequestOptions,
  ): Promise<CommandResult<C>>;
  /** Sends one command to every reachable host in parallel; one outcome per host, never throws per host. */
  requestEach<C extends CommandName>(
    command: C,
    params: CommandParams<C>,
    options?: RequestOptions,
  ): Promise<Array<HostOutcome<CommandResult<C>>>>;
  /** Everything known about every link, for bridge_status and doctor. Never throws. */
  status(options?: { signal?: AbortSignal }): Promise<BridgeReport>;
  /**
   * This server's capture events (what the designer did in the toolbar) from every host: at once
   * when some are queued, else the first to arrive within `timeoutMs` (an empty list after it).
   * Each event is returned once; throws BACKEND_UNREACHABLE when no host is reachable at all.
   */
  waitForCaptures(options: WaitOptions): Promise<CaptureBatch>;
  /** Events pushed by hosts (`type:'event'`); returns an unsubscribe function. */
  onEvent(listener: (event: BridgeEvent) => void): () => void;
  close(): Promise<void>;
}

export interface RequestOptions {
  /** browser_id (from list_tabs) of the browser to talk to. */
  browser?: string;
  /** How long the command may take in the browser; the link waits a little longer. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Told when the browser says the command waits its turn (a capture queued behind others) or
   * starts; the link's time limit is paused meanwhile.
   */
  onProgress?: (progress: Progress) => void;
}

export interface HostSummary {
  /** Descriptor file name (`h-<pid>.json`): stable for the host's lifetime. */
  key: string;
  descriptorPath: string;
  pid: number;
  endpoint: string;
  info: HostInfo;
}

export type HostOutcome<R> =
  | { ok: true; host: HostSummary; browser: BrowserInfo | null; result: R }
  | { ok: false; host: HostSummary; browser: BrowserInfo | null; error: ErrorPayload };

export interface BridgeEvent {
  event: string;
  data: unknown;
  host: HostSummary;
}

export interface HostLinkReport {
  descriptor_path: string;
  pid: number | null;
  pid_alive: boolean;
  endpoint: string | null;
  reachable: boolean;
  /** Why the host is not usable (stale descriptor, refused, wrong token, protocol mismatch...). */
  error: ErrorPayload | null;
  host: HostInfo | null;
}

export interface BridgeReport {
  home: string;
  runtime_dir: string;
  /** Why the runtime dir (or its record in the home) was refused: nothing in it was read. */
  runtime_dir_refused: ErrorPayload | null;
  token_file: string;
  token_present: boolean;
  hosts: HostLinkReport[];
  /** Capture events this server has received and not yet handed to wait_for_captures. */
  queued_events: number;
}
