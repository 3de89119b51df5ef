/**
 * Test double for the BridgeClient interface: tools are unit-tested against it. Lives outside
 * mcp/src so it is never built into the product.
 */

import {
  type BrowserInfo,
  type CaptureEvent,
  type CommandName,
  type CommandResult,
  type ErrorPayload,
  type HostInfo,
  PROTOCOL_VERSION,
  XipeError,
} from '#shared/index.js';
import { createLogger, type Logger } from '#shared/node/logger.js';
import type {
  BridgeClient,
  BridgeEvent,
  BridgeReport,
  HostOutcome,
  HostSummary,
  RequestOptions,
} from '../src/bridge-client/bridge.js';
import type { CaptureBatch, WaitOptions } from '../src/bridge-client/capture-inbox.js';
import type { ToolContext } from '../src/tools/define-tool.js';

export const browserInfo = (id: string): BrowserInfo => ({
  browser_id: id,
  name: 'Chromium',
  version: '156.0',
  user_agent: 'ua',
});

export function hostInfo(pid: number, browser: string | null, overrides: Partial<HostInfo> = {}): HostInfo {
  return {
    pid,
    host_version: '0.1.0',
    protocol: PROTOCOL_VERSION,
    started_at: '2025-01-01T00:00:00.000Z',
    endpoint: `/run/h-${pid}.sock`,
    log_file: `/home/logs/host.log`,
    extension_connected: browser !== null,
    extension:
      browser === null
        ? null
        : { id: 'ext', version: '0.1.0', user_scripts_allowed: true, browser: browserInfo(browser) },
    origin: 'chrome-extension://ext/',
    ...overrides,
  };
}

export const hostSummary = (info: HostInfo): HostSummary => ({
  key: `h-${info.pid}.json`,
  descriptorPath: `/run/h-${info.pid}.json`,
  pid: info.pid,
  endpoint: info.endpoint,
  info,
});

/** What a fake host answers: a result, or a thrown XipeError. */
export type FakeAnswer = (command: CommandName, params: unknown, options: RequestOptions) => unknown;

export interface SentRequest {
  command: CommandName;
  params: unknown;
  options: RequestOptions;
  /** Which fake host got it (pid). */
  pid: number;
}

/** A bridge of in-memory hosts; each host answers with its own function. */
export class FakeBridge implements BridgeClient {
  readonly sent: SentRequest[] = [];
  readonly listeners = new Set<(event: BridgeEvent) => void>();
  report: BridgeReport | null = null;
  /** Capture events waitForCaptures hands out (all at once, then empty). */
  captures: CaptureEvent[] = [];
  capturesDropped = 0;
  readonly captureWaits: WaitOptions[] = [];
  private readonly captureWakers = new Set<() => void>();

  constructor(readonly hostList: Array<{ info: HostInfo; answer: FakeAnswer }> = []) {}

  async hosts(): Promise<HostSummary[]> {
    if (this.hostList.length === 0)
      throw new XipeError('BACKEND_UNREACHABLE', 'No X-IPE native host is reachable (fake).');
    return this.hostList.map((h) => hostSummary(h.info));
  }

  async request<C extends CommandName>(
    command: C,
    params: unknown,
    options: RequestOptions = {},
  ): Promise<CommandResult<C>> {
    const hosts = await this.hosts();
    const candidates = this.hostList.filter(
      (h) => options.browser === undefined || h.info.extension?.browser.browser_id === options.browser,
    );
    const [target] = candidates;
    if (target === undefined || (candidates.length > 1 && options.browser === undefined)) {
      throw new XipeError('VALIDATION_ERROR', `browser: cannot route among ${hosts.length} hosts (fake)`, {
        field: 'browser',
      });
    }
    this.sent.push({ command, params, options, pid: target.info.pid });
    return target.answer(command, params, options) as CommandResult<C>;
  }

  async requestEach<C extends CommandName>(
    command: C,
    params: unknown,
    options: RequestOptions = {},
  ): Promise<Array<HostOutcome<CommandResult<C>>>> {
    await this.hosts();
    return Promise.all(
      this.hostList.map(async (h): Promise<HostOutcome<CommandResult<C>>> => {
        const host = hostSummary(h.info);
        const browser = h.info.extension?.browser ?? null;
        this.sent.push({ command, params, options, pid: h.info.pid });
        try {
          return {
            ok: true,
            host,
            browser,
            result: (await h.answer(command, params, options)) as CommandResult<C>,
          };
        } catch (err) {
          const error: ErrorPayload =
            err instanceof XipeError ? err.toPayload() : { code: 'INTERNAL_ERROR', message: String(err) };
          return { ok: false, host, browser, error };
        }
      }),
    );
  }

  async status(): Promise<BridgeReport> {
    return (
      this.report ?? {
        home: '/home',
        runtime_dir: '/home/run',
        runtime_dir_refused: null,
        token_file: '/home/token',
        token_present: true,
        queued_events: 0,
        hosts: this.hostList.map((h) => ({
          descriptor_path: `/home/run/h-${h.info.pid}.json`,
          pid: h.info.pid,
          pid_alive: true,
          endpoint: h.info.endpoint,
          reachable: true,
          error: null,
          host: h.info,
        })),
      }
    );
  }

  /** Queues capture events and wakes a pending waitForCaptures. */
  pushCaptures(...events: CaptureEvent[]): void {
    this.captures.push(...events);
    for (const wake of [...this.captureWakers]) wake();
  }

  async waitForCaptures(options: WaitOptions): Promise<CaptureBatch> {
    this.captureWaits.push(options);
    await this.hosts();
    if (this.captures.length === 0) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.captureWakers.delete(done);
          options.signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, options.timeoutMs);
        this.captureWakers.add(done);
        options.signal?.addEventListener('abort', done, { once: true });
      });
    }
    const batch = { events: this.captures, dropped: this.capturesDropped };
    this.captures = [];
    this.capturesDropped = 0;
    return batch;
  }

  onEvent(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {}
}

export const silentLogger = (): Logger => createLogger({ component: 'test', stderr: null, level: 'error' });

export function toolContext(bridge: BridgeClient, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    bridge,
    workspace: '/workspace',
    logger: silentLogger(),
    signal: new AbortController().signal,
    toolName: 'test',
    ...overrides,
  };
}
