import { toErrorPayload, XipeError } from '#shared/errors.js';
import {
  type BrowserInfo,
  type CommandName,
  type CommandParams,
  type CommandResult,
  EVENTS_SINCE,
  HOST_STATUS,
  HostInfo,
} from '#shared/index.js';
import type { HostConnection } from '#shared/node/bridge/host-connection.js';
import type { Logger } from '#shared/node/logger.js';
import type {
  BridgeClient,
  BridgeEvent,
  BridgeReport,
  HostOutcome,
  HostSummary,
  RequestOptions,
} from './bridge.js';
import { type CaptureBatch, CaptureInbox, type InboxHost, type WaitOptions } from './capture-inbox.js';
import { HostPool } from './host-pool.js';
import { parseResult } from './results.js';
import { delay, RETRY_DELAY_MS, retryable, retryOnce } from './retry.js';
import { pickHost } from './routing.js';
import { bridgeReport } from './status.js';

export interface BridgeClientOptions {
  home: string;
  workspace: string;
  logger: Logger;
  /** Default wait for a command without timeoutMs. */
  defaultTimeoutMs?: number;
  /** Extra wait beyond a command's timeout so the extension's own, more precise TIMEOUT wins. */
  timeoutMarginMs?: number;
  helloTimeoutMs?: number;
  /** Pause before the one retry after a connection error (a host may be restarting). */
  retryDelayMs?: number;
  platform?: NodeJS.Platform;
  isPidAlive?: (pid: number) => boolean;
}

const STATUS_TIMEOUT_MS = 3_000;
const EVENTS_TIMEOUT_MS = 5_000;

export function createBridgeClient(options: BridgeClientOptions): BridgeClient {
  return new SocketBridgeClient(options);
}

/**
 * The MCP server's side of the host links, put together from its parts: the host pool (discovery
 * and connections), routing (which host serves a browser), the retry rule, the contract checks on
 * params and results, the status report, and the capture inbox.
 */
class SocketBridgeClient implements BridgeClient {
  private readonly pool: HostPool;
  private readonly listeners = new Set<(event: BridgeEvent) => void>();
  private readonly inbox: CaptureInbox;
  private readonly retryDelayMs: number;

  constructor(private readonly options: BridgeClientOptions) {
    this.retryDelayMs = options.retryDelayMs ?? RETRY_DELAY_MS;
    this.pool = new HostPool({
      home: options.home,
      workspace: options.workspace,
      logger: options.logger,
      ...(options.helloTimeoutMs !== undefined ? { helloTimeoutMs: options.helloTimeoutMs } : {}),
      ...(options.platform !== undefined ? { platform: options.platform } : {}),
      ...(options.isPidAlive !== undefined ? { isPidAlive: options.isPidAlive } : {}),
      onEvent: (event, connection) => {
        if (event.seq !== undefined) this.inbox.notify(this.inboxHost(connection));
        this.emit(connection, event.event, event.data);
      },
    });
    this.inbox = new CaptureInbox(
      { hosts: async () => (await this.pool.live()).map((c) => this.inboxHost(c)) },
      { logger: options.logger },
    );
  }

  waitForCaptures(options: WaitOptions): Promise<CaptureBatch> {
    return this.inbox.wait(options);
  }

  private inboxHost(connection: HostConnection): InboxHost {
    return {
      key: `${connection.pid}@${connection.info.started_at}`,
      fetch: (afterSeq, signal) =>
        this.send(
          connection,
          EVENTS_SINCE,
          { after_seq: afterSeq },
          { timeoutMs: EVENTS_TIMEOUT_MS, ...(signal !== undefined ? { signal } : {}) },
        ),
    };
  }

  async hosts(options: { signal?: AbortSignal } = {}): Promise<HostSummary[]> {
    const connections = await this.pool.live();
    if (connections.length > 1)
      await this.refreshInfo(
        connections.filter((c) => c.info.extension === null),
        options.signal,
      );
    return connections.map((c) => this.summary(c));
  }

  async request<C extends CommandName>(
    command: C,
    params: CommandParams<C>,
    options: RequestOptions = {},
  ): Promise<CommandResult<C>> {
    return retryOnce(
      async () => {
        const connection = await pickHost(await this.pool.live(), options, (stale, signal) =>
          this.refreshInfo(stale, signal),
        );
        return this.send(connection, command, params, options);
      },
      {
        delayMs: this.retryDelayMs,
        mayRetry: () => !this.pool.closed,
        onRetry: (err) =>
          this.options.logger.info('connection error before the request was sent, retrying once', {
            command,
            reason: (err as Error).message,
          }),
      },
    );
  }

  async requestEach<C extends CommandName>(
    command: C,
    params: CommandParams<C>,
    options: RequestOptions = {},
  ): Promise<Array<HostOutcome<CommandResult<C>>>> {
    type Outcome = HostOutcome<CommandResult<C>> & { lost: boolean };
    // Final outcomes by host; on the one retry only hosts whose request never left are asked again.
    const final = new Map<string, Outcome>();
    for (let attempt = 0; ; attempt += 1) {
      const connections = (await this.pool.live()).filter((c) => !final.has(c.key));
      const outcomes = await Promise.all(
        connections.map(async (connection): Promise<Outcome> => {
          const host = this.summary(connection);
          const browser: BrowserInfo | null = connection.info.extension?.browser ?? null;
          try {
            const result = await this.send(connection, command, params, options);
            return { ok: true, host, browser: resultBrowser(result) ?? browser, result, lost: false };
          } catch (err) {
            return { ok: false, host, browser, error: toErrorPayload(err), lost: retryable(err) };
          }
        }),
      );
      const retry = attempt === 0 && outcomes.some((o) => o.lost) && !this.pool.closed;
      for (const outcome of outcomes) if (!retry || !outcome.lost) final.set(outcome.host.key, outcome);
      if (retry) {
        await delay(this.retryDelayMs);
        continue;
      }
      return [...final.values()]
        .sort((a, b) => (a.host.key < b.host.key ? -1 : a.host.key > b.host.key ? 1 : 0))
        .map(({ lost: _lost, ...outcome }) => outcome);
    }
  }

  async status(options: { signal?: AbortSignal } = {}): Promise<BridgeReport> {
    const links = await this.pool.scan();
    const live = links.flatMap((l) => (l.connection !== null ? [l.connection] : []));
    await this.refreshInfo(live, options.signal);
    let tokenPresent = false;
    try {
      tokenPresent = this.pool.readToken() !== null;
    } catch {
      tokenPresent = false;
    }
    return bridgeReport(links, {
      home: this.options.home,
      runtimeDir: this.pool.dir,
      runtimeDirRefused: this.pool.runtimeDirRefusal,
      tokenPresent,
      queuedEvents: this.inbox.pending,
    });
  }

  onEvent(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async send<C extends CommandName>(
    connection: HostConnection,
    command: C,
    wire: unknown,
    options: RequestOptions,
  ): Promise<CommandResult<C>> {
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? 30_000;
    const waitMs = timeoutMs + (this.options.timeoutMarginMs ?? 2_000);
    let raw: unknown;
    try {
      raw = await connection.request(command, wire, timeoutMs, waitMs, options.signal, options.onProgress);
    } catch (err) {
      if (err instanceof XipeError && err.code === 'EXTENSION_NOT_CONNECTED') {
        connection.info = { ...connection.info, extension_connected: false, extension: null };
      }
      throw err;
    }
    const result = parseResult(command, raw, connection.pid);
    if (command === HOST_STATUS) connection.info = result as HostInfo;
    return result;
  }

  /** Asks hosts for fresh HostInfo (the extension may have connected after our hello). */
  private async refreshInfo(connections: HostConnection[], signal?: AbortSignal): Promise<void> {
    await Promise.all(
      connections.map(async (connection) => {
        try {
          const raw = await connection.request(HOST_STATUS, {}, STATUS_TIMEOUT_MS, STATUS_TIMEOUT_MS, signal);
          const info = HostInfo.safeParse(raw);
          if (info.success) connection.info = info.data;
        } catch (err) {
          this.options.logger.debug('host_status failed', {
            pid: connection.pid,
            error: (err as Error).message,
          });
        }
      }),
    );
  }

  private summary(connection: HostConnection): HostSummary {
    return {
      key: connection.key,
      descriptorPath: this.pool.descriptorPath(connection.key),
      pid: connection.pid,
      endpoint: connection.descriptor.endpoint,
      info: connection.info,
    };
  }

  private emit(connection: HostConnection, event: string, data: unknown): void {
    const host = this.summary(connection);
    for (const listener of this.listeners) {
      try {
        listener({ event, data, host });
      } catch (err) {
        this.options.logger.warn('event listener failed', { event, error: (err as Error).message });
      }
    }
  }
}

function resultBrowser(result: unknown): BrowserInfo | null {
  const browser = (result as { browser?: BrowserInfo } | null)?.browser;
  return browser !== undefined && typeof browser?.browser_id === 'string' ? browser : null;
}
