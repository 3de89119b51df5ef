import fs from 'node:fs';
import path from 'node:path';
import { type ErrorPayload, toErrorPayload, validationError, XipeError } from '../../shared/src/errors.js';
import {
  type BrowserInfo,
  COMMANDS,
  type CommandName,
  type CommandParams,
  type CommandResult,
  EVENTS_SINCE,
  HELLO_TIMEOUT_MS,
  HOST_STATUS,
  HostInfo,
} from '../../shared/src/index.js';
import { EndpointDescriptor } from '../../shared/src/node/endpoint-descriptor.js';
import type { Logger } from '../../shared/src/node/logger.js';
import { runtimeDir, tokenPath } from '../../shared/src/node/paths.js';
import { pidAlive } from '../../shared/src/node/pid.js';
import { readToken } from '../../shared/src/node/token.js';
import { formatZodError } from '../../shared/src/validation-issues.js';
import type {
  BridgeClient,
  BridgeEvent,
  BridgeReport,
  HostLinkReport,
  HostOutcome,
  HostSummary,
  RequestOptions,
} from './bridge.js';
import { type CaptureBatch, CaptureInbox, type InboxHost, type WaitOptions } from './capture-inbox.js';
import { HostConnection, LinkLost } from './host-connection.js';

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

const DESCRIPTOR_FILE = /^h-\d+\.json$/;
const STATUS_TIMEOUT_MS = 3_000;
const EVENTS_TIMEOUT_MS = 5_000;

/** Safe to send again: the request cannot have reached the host. */
function retryable(err: unknown): boolean {
  return err instanceof LinkLost && !err.maybeDelivered;
}

export const NO_HOST_FIX =
  'Open Chrome/Chromium with the X-IPE extension (or run `x-ipe-uiux start`), then check `x-ipe-uiux doctor`.';

/** One descriptor file found in the runtime dir and what became of it. */
interface Link {
  file: string;
  descriptorPath: string;
  descriptor: EndpointDescriptor | null;
  pidAlive: boolean;
  connection: HostConnection | null;
  error: ErrorPayload | null;
}

export function createBridgeClient(options: BridgeClientOptions): BridgeClient {
  return new SocketBridgeClient(options);
}

/**
 * Discovers hosts by listing `<runtime dir>/h-*.json`, keeps one authenticated connection per host
 * and reuses it; every call re-lists the directory (cheap), so a restarted or newly started host is
 * found without restarting the MCP server.
 */
class SocketBridgeClient implements BridgeClient {
  private readonly connections = new Map<string, HostConnection>();
  private readonly connecting = new Map<string, Promise<HostConnection>>();
  private readonly listeners = new Set<(event: BridgeEvent) => void>();
  private readonly dir: string;
  private readonly isPidAlive: (pid: number) => boolean;
  private readonly inbox: CaptureInbox;
  private closed = false;
  private listedThisTurn: string[] | null = null;

  constructor(private readonly options: BridgeClientOptions) {
    this.dir = runtimeDir(options.home, options.platform);
    this.isPidAlive = options.isPidAlive ?? pidAlive;
    this.inbox = new CaptureInbox(
      { hosts: async () => (await this.liveConnections()).map((c) => this.inboxHost(c)) },
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
    const connections = await this.liveConnections();
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
    const wire = this.checkParams(command, params);
    for (let attempt = 0; ; attempt += 1) {
      try {
        const connections = await this.liveConnections();
        const connection = await this.pick(connections, options);
        return await this.send(connection, command, wire, options);
      } catch (err) {
        if (!retryable(err) || attempt > 0 || this.closed) throw err;
        this.options.logger.info('connection error before the request was sent, retrying once', {
          command,
          reason: (err as Error).message,
        });
        await delay(this.options.retryDelayMs ?? 200);
      }
    }
  }

  async requestEach<C extends CommandName>(
    command: C,
    params: CommandParams<C>,
    options: RequestOptions = {},
  ): Promise<Array<HostOutcome<CommandResult<C>>>> {
    const wire = this.checkParams(command, params);
    type Outcome = HostOutcome<CommandResult<C>> & { lost: boolean };
    // Final outcomes by host; on the one retry only hosts whose request never left are asked again.
    const final = new Map<string, Outcome>();
    for (let attempt = 0; ; attempt += 1) {
      const connections = (await this.liveConnections()).filter((c) => !final.has(c.key));
      const outcomes = await Promise.all(
        connections.map(async (connection): Promise<Outcome> => {
          const host = this.summary(connection);
          const browser: BrowserInfo | null = connection.info.extension?.browser ?? null;
          try {
            const result = await this.send(connection, command, wire, options);
            return { ok: true, host, browser: resultBrowser(result) ?? browser, result, lost: false };
          } catch (err) {
            return { ok: false, host, browser, error: toErrorPayload(err), lost: retryable(err) };
          }
        }),
      );
      const retry = attempt === 0 && outcomes.some((o) => o.lost) && !this.closed;
      for (const outcome of outcomes) if (!retry || !outcome.lost) final.set(outcome.host.key, outcome);
      if (retry) {
        await delay(this.options.retryDelayMs ?? 200);
        continue;
      }
      return [...final.values()]
        .sort((a, b) => (a.host.key < b.host.key ? -1 : a.host.key > b.host.key ? 1 : 0))
        .map(({ lost: _lost, ...outcome }) => outcome);
    }
  }

  async status(options: { signal?: AbortSignal } = {}): Promise<BridgeReport> {
    const links = await this.scan();
    const live = links.flatMap((l) => (l.connection !== null ? [l.connection] : []));
    await this.refreshInfo(live, options.signal);
    let tokenPresent = false;
    try {
      tokenPresent = this.readToken() !== null;
    } catch {
      tokenPresent = false;
    }
    const hosts: HostLinkReport[] = links.map((link) => ({
      descriptor_path: link.descriptorPath,
      pid: link.descriptor?.pid ?? null,
      pid_alive: link.pidAlive,
      endpoint: link.descriptor?.endpoint ?? null,
      reachable: link.connection !== null && !link.connection.closed,
      error: link.error,
      host: link.connection?.info ?? null,
    }));
    return {
      home: this.options.home,
      runtime_dir: this.dir,
      token_file: tokenPath(this.options.home),
      token_present: tokenPresent,
      hosts,
      queued_events: this.inbox.pending,
    };
  }

  onEvent(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const connection of this.connections.values()) connection.close();
    this.connections.clear();
    const late = await Promise.allSettled(this.connecting.values());
    for (const outcome of late) if (outcome.status === 'fulfilled') outcome.value.close();
  }

  // ── discovery ──────────────────────────────────────────────────────────────────────────────

  /** Open connections after a scan; BACKEND_UNREACHABLE (LinkLost when retrying may help) if none. */
  private async liveConnections(): Promise<HostConnection[]> {
    if (this.closed) throw new XipeError('BACKEND_UNREACHABLE', 'The MCP server is shutting down.');
    const links = await this.scan();
    const live = links.flatMap((l) => (l.connection !== null ? [l.connection] : []));
    if (live.length > 0) return live;
    const problems = links.filter((l) => l.pidAlive && l.error !== null);
    const final = problems.find((l) => l.error !== null && l.error.code !== 'BACKEND_UNREACHABLE');
    if (final?.error != null) throw XipeError.from(final.error);
    const where = `looked for h-*.json descriptors in ${this.dir} (XIPE_UIUX_HOME=${this.options.home})`;
    const found =
      links.length === 0
        ? 'none found'
        : links
            .map(
              (l) =>
                `${l.file}: ${l.error?.message ?? (l.pidAlive ? 'unreachable' : 'stale, its process is gone')}`,
            )
            .join('; ');
    const message = `No X-IPE native host is reachable: ${where}, ${found}. ${NO_HOST_FIX}`;
    const details = {
      runtime_dir: this.dir,
      home: this.options.home,
      descriptors: links.map((l) => ({ file: l.descriptorPath, pid_alive: l.pidAlive, error: l.error })),
    };
    // A live host that refused or hung up may be restarting: worth the one retry.
    throw problems.length > 0
      ? new LinkLost(message, details)
      : new XipeError('BACKEND_UNREACHABLE', message, details);
  }

  /** Lists descriptors, reuses open connections, connects to new hosts, drops vanished ones. */
  private async scan(): Promise<Link[]> {
    const files = this.descriptorFiles();
    for (const [file, connection] of this.connections) {
      if (!files.includes(file)) {
        connection.close(); // the host removed its descriptor: it is going away
        this.connections.delete(file);
      }
    }
    return Promise.all(files.map((file) => this.link(file)));
  }

  /**
   * The descriptor files, listed once per event-loop turn: a tool call that resolves its route
   * (hosts) and then sends (request) in the same turn lists the directory once. Sync on purpose: a
   * directory of a few entries lists in microseconds, an async readdir costs a thread-pool round
   * trip. Open connections are still checked per scan (link), so a closed one is never reused.
   */
  private descriptorFiles(): string[] {
    if (this.listedThisTurn !== null) return this.listedThisTurn;
    let files: string[];
    try {
      files = fs
        .readdirSync(this.dir)
        .filter((f) => DESCRIPTOR_FILE.test(f))
        .sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.options.logger.warn('cannot list the runtime dir', {
          dir: this.dir,
          error: (err as Error).message,
        });
      }
      files = [];
    }
    this.listedThisTurn = files;
    setImmediate(() => {
      this.listedThisTurn = null;
    });
    return files;
  }

  private async link(file: string): Promise<Link> {
    const descriptorPath = path.join(this.dir, file);
    const open = this.connections.get(file);
    if (open !== undefined && !open.closed) {
      return {
        file,
        descriptorPath,
        descriptor: open.descriptor,
        pidAlive: true,
        connection: open,
        error: null,
      };
    }
    let descriptor: EndpointDescriptor;
    try {
      const json: unknown = JSON.parse(await fs.promises.readFile(descriptorPath, 'utf8'));
      const parsed = EndpointDescriptor.safeParse(json);
      if (!parsed.success) throw new Error(formatZodError(parsed.error, json));
      descriptor = parsed.data;
    } catch (err) {
      const message = `Unreadable descriptor ${descriptorPath} (${(err as Error).message}); it is ignored.`;
      return {
        file,
        descriptorPath,
        descriptor: null,
        pidAlive: false,
        connection: null,
        error: { code: 'PROTOCOL_ERROR', message },
      };
    }
    if (!this.isPidAlive(descriptor.pid)) {
      // Left by a host that was killed; whoever finds it removes it.
      fs.promises.unlink(descriptorPath).catch(() => {});
      const message = `Stale descriptor of dead host pid ${descriptor.pid} (removed).`;
      return {
        file,
        descriptorPath,
        descriptor,
        pidAlive: false,
        connection: null,
        error: { code: 'BACKEND_UNREACHABLE', message },
      };
    }
    try {
      const connection = await this.connect(file, descriptor);
      return { file, descriptorPath, descriptor, pidAlive: true, connection, error: null };
    } catch (err) {
      return {
        file,
        descriptorPath,
        descriptor,
        pidAlive: true,
        connection: null,
        error: toErrorPayload(err),
      };
    }
  }

  private readToken(): string | null {
    const { home, logger, platform } = this.options;
    return readToken(home, {
      platform,
      onRepaired: (message) => logger.warn('token file permissions repaired', { detail: message }),
    });
  }

  private connect(file: string, descriptor: EndpointDescriptor): Promise<HostConnection> {
    const inFlight = this.connecting.get(file);
    if (inFlight !== undefined) return inFlight;
    // Throws (UNAUTHORIZED, with the fix) when another user owns the token file.
    const token = this.readToken();
    if (token === null) {
      return Promise.reject(
        new XipeError(
          'UNAUTHORIZED',
          `No bridge token at ${tokenPath(this.options.home)}: run \`x-ipe-uiux install\` (XIPE_UIUX_HOME must be the same for the MCP server and the browser's host).`,
        ),
      );
    }
    const attempt = HostConnection.open({
      key: file,
      descriptor,
      token,
      client: { name: 'x-ipe-uiux-mcp', pid: process.pid, workspace: this.options.workspace },
      helloTimeoutMs: this.options.helloTimeoutMs ?? HELLO_TIMEOUT_MS,
      logger: this.options.logger,
      onEvent: (event, connection) => {
        if (event.seq !== undefined) this.inbox.notify(this.inboxHost(connection));
        this.emit(connection, event.event, event.data);
      },
      onClose: () => {
        if (this.connections.get(file) === connection) this.connections.delete(file);
        this.options.logger.info('host link closed', { pid: descriptor.pid });
      },
    });
    let connection: HostConnection | undefined;
    const tracked = attempt.then(
      (c) => {
        connection = c;
        this.connecting.delete(file);
        if (this.closed) c.close();
        else this.connections.set(file, c);
        this.options.logger.info('host link open', {
          pid: descriptor.pid,
          extension_connected: c.info.extension_connected,
        });
        return c;
      },
      (err: unknown) => {
        this.connecting.delete(file);
        this.options.logger.info('host link failed', { pid: descriptor.pid, error: (err as Error).message });
        throw err;
      },
    );
    this.connecting.set(file, tracked);
    return tracked;
  }

  // ── routing and sending ────────────────────────────────────────────────────────────────────

  private async pick(connections: HostConnection[], options: RequestOptions): Promise<HostConnection> {
    const only = connections[0];
    if (connections.length === 1 && only !== undefined && options.browser === undefined) return only;
    const byBrowser = (id: string): HostConnection | undefined =>
      connections.find((c) => c.info.extension?.browser.browser_id === id);
    if (options.browser !== undefined && byBrowser(options.browser) !== undefined) {
      return byBrowser(options.browser) as HostConnection;
    }
    await this.refreshInfo(
      connections.filter((c) => c.info.extension === null),
      options.signal,
    );
    const withExtension = connections.filter((c) => c.info.extension !== null);
    const ids = withExtension.map((c) => c.info.extension?.browser.browser_id ?? '');
    if (options.browser !== undefined) {
      const found = byBrowser(options.browser);
      if (found !== undefined) return found;
      if (withExtension.length < connections.length) {
        throw new XipeError(
          'EXTENSION_NOT_CONNECTED',
          `Browser ${options.browser} is not connected right now (a host is running without its extension; connected: ${ids.join(', ') || 'none'}). Bring that browser's window to front or reload the X-IPE extension, then retry; bridge_status shows every link.`,
          { browser: options.browser, connected_browsers: ids },
        );
      }
      throw new XipeError(
        'VALIDATION_ERROR',
        `browser: no connected browser has id ${options.browser}; connected: ${ids.join(', ') || 'none'}. Use a browser_id from list_tabs.`,
        { field: 'browser', connected_browsers: ids },
      );
    }
    const [single] = withExtension;
    if (withExtension.length === 1 && single !== undefined) return single;
    if (withExtension.length === 0) return connections[0] as HostConnection; // it answers EXTENSION_NOT_CONNECTED
    throw new XipeError(
      'VALIDATION_ERROR',
      `browser: ${withExtension.length} browsers are connected (${ids.join(', ')}); pass \`browser\` with one of these ids (see list_tabs).`,
      { field: 'browser', connected_browsers: ids },
    );
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
      raw = await connection.request(command, wire, timeoutMs, waitMs, options.signal);
    } catch (err) {
      if (err instanceof XipeError && err.code === 'EXTENSION_NOT_CONNECTED') {
        connection.info = { ...connection.info, extension_connected: false, extension: null };
      }
      throw err;
    }
    const parsed = COMMANDS[command].result.safeParse(raw);
    if (!parsed.success) {
      throw new XipeError(
        'PROTOCOL_ERROR',
        `Host pid ${connection.pid} returned an invalid ${command} result (${formatZodError(parsed.error, raw)}). Update the extension and x-ipe-uiux to the same version.`,
        { command, pid: connection.pid },
      );
    }
    if (command === HOST_STATUS) connection.info = parsed.data as HostInfo;
    return parsed.data as CommandResult<C>;
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

  private checkParams(command: CommandName, params: unknown): unknown {
    const parsed = COMMANDS[command].params.safeParse(params);
    if (!parsed.success) throw validationError(parsed.error, `${command} parameters`, params);
    return parsed.data;
  }

  private summary(connection: HostConnection): HostSummary {
    return {
      key: connection.key,
      descriptorPath: path.join(this.dir, connection.key),
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
