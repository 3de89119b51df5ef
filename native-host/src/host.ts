import type { Readable, Writable } from 'node:stream';
import { PROTOCOL_VERSION } from '#shared/constants.js';
import type { HostInfo } from '#shared/envelopes.js';
import { Config, loadConfig } from '#shared/node/config.js';
import type { Logger } from '#shared/node/logger.js';
import { PACKAGE_VERSION } from '#shared/node/version.js';
import { withTimeout } from '#shared/with-timeout.js';
import { BridgeServer } from './bridge-server.js';
import { HOST_HANDLERS, type HostHandler } from './handlers/index.js';
import { NativeLink } from './native-link.js';
import { Router } from './router.js';

/**
 * One host process's parts and lifecycle, with every input injected (streams, home, token,
 * logger) so tests run it in-process over PassThrough streams. `main.ts` only wires the real
 * process to it.
 */

export interface HostOptions {
  home: string;
  token: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** The caller origin Chrome passed (chrome-extension://<id>/), if any. */
  origin: string | null;
  /** The native link: frames from the extension in, frames to the extension out. */
  input: Readable;
  output: Writable;
  pid?: number;
  platform?: NodeJS.Platform;
  handlers?: Readonly<Record<string, HostHandler>>;
  helloTimeoutMs?: number;
  relayMarginMs?: number;
  /** How long shutdown waits for queued frames to reach the peers. */
  flushTimeoutMs?: number;
}

export interface RunningHost {
  /** Resolves with the exit code once the host has shut down and cleaned up. */
  readonly exited: Promise<number>;
  readonly router: Router;
  readonly bridge: BridgeServer;
  hostInfo(): HostInfo;
  /** Orderly shutdown (idempotent: the first code wins). */
  shutdown(code: number, reason: string): Promise<number>;
  /** Removes socket and descriptor synchronously (for a process 'exit' handler). */
  removeFilesSync(): void;
}

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const { home, logger } = options;
  const pid = options.pid ?? process.pid;
  const startedAt = new Date().toISOString();
  let lastGoodConfig: Config | null = null;
  const currentConfig = (): Config => {
    try {
      lastGoodConfig = loadConfig(home);
    } catch (err) {
      logger.warn('config.json could not be read; using the last good one', {
        error: (err as Error).message,
      });
    }
    return lastGoodConfig ?? loadDefaults();
  };
  currentConfig();

  let link: NativeLink | null = null;
  let bridge: BridgeServer | null = null;
  const hostInfo = (): HostInfo => ({
    pid,
    host_version: PACKAGE_VERSION,
    protocol: PROTOCOL_VERSION,
    started_at: startedAt,
    endpoint: bridge?.endpoint ?? '',
    log_file: logger.file ?? '',
    extension_connected: router.extensionConnected,
    extension: router.extensionInfo,
    origin: options.origin,
    ...(router.captureQueue !== null ? { capture_queue: router.captureQueue } : {}),
  });

  let resolveExited: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    resolveExited = resolve;
  });
  let shuttingDown: Promise<number> | null = null;

  const router: Router = new Router({
    logger,
    handlers: options.handlers ?? HOST_HANDLERS,
    hostInfo,
    relayMarginMs: options.relayMarginMs,
    extension: {
      send: (message) => {
        if (link === null || !link.canSend) throw new Error('the native link is closed');
        link.send(message);
      },
    },
    context: (parts) => ({
      ...parts,
      logger,
      home,
      env: options.env,
      config: currentConfig(),
      hostInfo,
    }),
    onFatal: (reason) => void shutdown(1, reason),
  });

  const shutdown = (code: number, reason: string): Promise<number> => {
    if (shuttingDown !== null) return shuttingDown;
    shuttingDown = (async () => {
      logger.info('host shutting down', { reason, code });
      link?.stopReading();
      router.stop(reason);
      const flushTimeoutMs = options.flushTimeoutMs ?? 2_000;
      // A save that is half-way through finishes (and is answered) before the clients are closed.
      const giveUp = (): void => undefined;
      await withTimeout(router.settled(), flushTimeoutMs, giveUp);
      await withTimeout(
        Promise.all([bridge?.close() ?? Promise.resolve(), link?.flush() ?? Promise.resolve()]),
        flushTimeoutMs,
        giveUp,
      );
      bridge?.removeFiles();
      resolveExited(code);
      return code;
    })();
    return shuttingDown;
  };

  const server = new BridgeServer({
    home,
    pid,
    token: options.token,
    logger,
    router,
    hostInfo,
    startedAt,
    hostVersion: PACKAGE_VERSION,
    helloTimeoutMs: options.helloTimeoutMs,
    platform: options.platform,
  });
  try {
    await server.start();
    bridge = server;
  } catch (err) {
    // Without a bridge the toolbar can still save through the native link; agents will see
    // BACKEND_UNREACHABLE and `x-ipe-uiux doctor` points here.
    logger.error('bridge endpoint could not be opened; MCP servers cannot reach this host', {
      error: (err as Error).message,
    });
    server.removeFiles();
  }

  link = new NativeLink({
    input: options.input,
    output: options.output,
    logger,
    streamPrefix: `h${pid}`,
    handlers: {
      onEnvelope: (envelope, bytes) => router.handleExtensionEnvelope(envelope, bytes),
      onInvalid: (raw, error) => router.handleExtensionInvalid(raw, error),
      onClose: (reason, error) => {
        if (reason === 'end') {
          void shutdown(0, 'the extension closed the native link');
        } else if (reason === 'output-error') {
          const epipe = (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
          if (!epipe) logger.error('writing to the extension failed', { error: error?.message });
          void shutdown(epipe ? 0 : 1, 'stdout closed');
        } else if (reason === 'desync') {
          logger.error('unreadable frame on the native link; stopped reading', { error: error?.message });
          void shutdown(1, 'native link desynchronised');
        }
      },
    },
  });
  logger.info('host started', { pid, origin: options.origin, endpoint: server.endpoint });

  return {
    exited,
    router,
    bridge: server,
    hostInfo,
    shutdown,
    removeFilesSync: () => server.removeFiles(),
  };
}

function loadDefaults(): Config {
  return Config.parse({});
}
