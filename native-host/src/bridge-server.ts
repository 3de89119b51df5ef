import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  BRIDGE_HELLO_MAX_FRAME_BYTES,
  BRIDGE_MAX_FRAME_BYTES,
  HELLO_TIMEOUT_MS,
  PROTOCOL_VERSION,
} from '#shared/constants.js';
import type { Envelope, HostInfo, LinkError } from '#shared/envelopes.js';
import type { ErrorCode } from '#shared/errors.js';
import { HostHandshake, type Refusal } from '#shared/node/bridge/handshake.js';
import { descriptorFileName, socketFileName } from '#shared/node/endpoint-descriptor.js';
import { encodeFrame, FrameError } from '#shared/node/framing.js';
import type { Logger } from '#shared/node/logger.js';
import { pipePath, tokenPath } from '#shared/node/paths.js';
import { FrameChannel } from './frame-channel.js';
import type { Router } from './router.js';
import type { ClientPort } from './router-ports.js';
import { chooseRuntimeDir, removeQuietly, removeStaleEndpoints, writeDescriptor } from './runtime-dir.js';

/**
 * The bridge endpoint MCP servers connect to: a Unix socket in the per-user runtime dir (a named
 * pipe on Windows) plus a descriptor file next to it for discovery. Each connection must finish the
 * handshake (a hello of our protocol, then a proof that it holds the token; the token itself
 * never crosses the link: `shared/src/node/bridge/handshake.ts`) within the hello timeout; only then do its
 * frames reach the router. Before that, frames are capped at BRIDGE_HELLO_MAX_FRAME_BYTES, so an
 * anonymous peer cannot make the host buffer a large frame.
 */

export interface BridgeServerOptions {
  home: string;
  pid: number;
  token: string;
  logger: Logger;
  router: Router;
  hostInfo: () => HostInfo;
  startedAt: string;
  hostVersion: string;
  helloTimeoutMs?: number;
  platform?: NodeJS.Platform;
}

/** After a rejection, give the peer this long to read the error before the socket is destroyed. */
const REJECT_GRACE_MS = 1_000;

export class BridgeServer {
  private server: net.Server | null = null;
  private readonly connections = new Set<BridgeConnection>();
  private nextClientId = 1;
  private endpointValue = '';
  private descriptorFile = '';
  private readonly platform: NodeJS.Platform;

  constructor(private readonly options: BridgeServerOptions) {
    this.platform = options.platform ?? process.platform;
  }

  /** The endpoint we listen on, or '' when not listening. */
  get endpoint(): string {
    return this.endpointValue;
  }

  get descriptorPath(): string {
    return this.descriptorFile;
  }

  /** Prepares the runtime dir, listens, writes the descriptor. Throws with a clear message on failure. */
  async start(): Promise<string> {
    const { home, pid, logger } = this.options;
    const dir = chooseRuntimeDir(home, { platform: this.platform, logger });
    const stale = removeStaleEndpoints(dir, pid);
    if (stale.length > 0) logger.info('removed endpoints of dead hosts', { files: stale });

    const endpoint = this.platform === 'win32' ? pipePath(home, pid) : path.join(dir, socketFileName(pid));
    if (this.platform !== 'win32') removeQuietly(endpoint); // left by an earlier process with our pid
    const server = net.createServer({ allowHalfOpen: false }, (socket) => this.accept(socket));
    await listen(server, endpoint, this.platform);
    this.server = server;
    this.endpointValue = endpoint;
    if (this.platform !== 'win32') fs.chmodSync(endpoint, 0o600);

    this.descriptorFile = path.join(dir, descriptorFileName(pid));
    writeDescriptor(this.descriptorFile, {
      pid,
      endpoint,
      protocol: PROTOCOL_VERSION,
      host_version: this.options.hostVersion,
      started_at: this.options.startedAt,
    });
    server.on('error', (err) => logger.error('bridge server error', { error: err.message }));
    logger.info('bridge listening', { endpoint, descriptor: this.descriptorFile });
    return endpoint;
  }

  /**
   * Stops listening, says goodbye to every client (their pending answers were already sent by
   * the router), and removes the socket and descriptor.
   */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.removeFiles();
    const closing = [...this.connections].map((connection) => connection.end());
    if (server !== null) {
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), ...closing]);
    } else {
      await Promise.all(closing);
    }
  }

  /** Synchronous last-resort cleanup (process 'exit' handler). */
  removeFiles(): void {
    if (this.descriptorFile !== '') removeQuietly(this.descriptorFile);
    if (this.endpointValue !== '' && this.platform !== 'win32') removeQuietly(this.endpointValue);
  }

  private accept(socket: net.Socket): void {
    const connection = new BridgeConnection(this.nextClientId++, socket, this.options, () =>
      this.connections.delete(connection),
    );
    this.connections.add(connection);
  }
}

function listen(server: net.Server, endpoint: string, platform: NodeJS.Platform): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    // The socket must never exist with looser permissions, even for a moment.
    const previous = platform === 'win32' ? null : process.umask(0o177);
    try {
      server.listen(endpoint, () => {
        server.off('error', onError);
        resolve();
      });
    } finally {
      if (previous !== null) process.umask(previous);
    }
  });
}

type ConnectionState = 'awaiting-hello' | 'awaiting-proof' | 'open' | 'closing';

class BridgeConnection implements ClientPort {
  readonly id: number;
  label = 'unknown';
  workspace: string | undefined;
  private state: ConnectionState = 'awaiting-hello';
  private readonly handshake: HostHandshake;
  private readonly channel: FrameChannel;
  private readonly helloTimer: NodeJS.Timeout;
  private readonly closed: Promise<void>;

  constructor(
    id: number,
    private readonly socket: net.Socket,
    private readonly options: BridgeServerOptions,
    onGone: () => void,
  ) {
    this.id = id;
    this.handshake = new HostHandshake(options.token);
    const { logger } = options;
    logger.info('bridge client connected', { client: id });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('close', () => {
      clearTimeout(this.helloTimer);
      options.router.removeClient(this);
      logger.info('bridge client disconnected', { client: id, name: this.label });
      onGone();
    });
    this.channel = new FrameChannel(socket, socket, BRIDGE_HELLO_MAX_FRAME_BYTES, {
      onValue: (value, bytes) => this.onValue(value, bytes),
      onClose: (reason, error) => {
        if (reason === 'desync') {
          const tooLarge = error instanceof FrameError && /exceeds/.test(error.message);
          const beforeHello = this.state === 'awaiting-hello' || this.state === 'awaiting-proof';
          logger.warn('bridge client sent an unreadable frame', {
            client: id,
            error: error?.message,
            authenticated: !beforeHello,
          });
          this.reject(
            tooLarge ? 'PAYLOAD_TOO_LARGE' : 'PROTOCOL_ERROR',
            tooLarge && beforeHello
              ? `Frame too large before the hello (${error?.message ?? ''}): send a hello of at most ` +
                  `${BRIDGE_HELLO_MAX_FRAME_BYTES} bytes first. ${this.tokenHint()}`
              : `Unreadable frame: ${error?.message ?? ''}`,
          );
        } else if (reason === 'output-error' || error !== undefined) {
          logger.debug('bridge client socket error', { client: id, error: error?.message });
          socket.destroy();
        }
      },
    });
    const helloTimeoutMs = options.helloTimeoutMs ?? HELLO_TIMEOUT_MS;
    this.helloTimer = setTimeout(() => {
      if (this.state !== 'awaiting-hello' && this.state !== 'awaiting-proof') return;
      logger.warn('bridge client rejected: no hello in time', { client: id, timeout_ms: helloTimeoutMs });
      this.reject('UNAUTHORIZED', `No hello within ${helloTimeoutMs} ms. ${this.tokenHint()}`);
    }, helloTimeoutMs);
    this.helloTimer.unref();
  }

  send(message: Envelope): void {
    if (this.state !== 'open') return;
    this.channel.writeFrame(encodeFrame(message, BRIDGE_MAX_FRAME_BYTES));
  }

  /** Flushes what is queued, then closes; resolves when the socket is closed. */
  end(): Promise<void> {
    if (this.state !== 'closing') {
      this.state = 'closing';
      this.channel.stopReading();
      void this.channel.flush().then(() => this.socket.end());
      setTimeout(() => this.socket.destroy(), REJECT_GRACE_MS).unref();
    }
    return this.closed;
  }

  private onValue(value: unknown, payloadBytes: number): void {
    if (this.state === 'open') {
      this.options.router.handleClientValue(this, value, payloadBytes);
    } else if (this.state === 'awaiting-hello') {
      this.onHello(value);
    } else if (this.state === 'awaiting-proof') {
      this.onProof(value);
    }
  }

  private onHello(value: unknown): void {
    const answer = this.handshake.hello(value);
    if ('refuse' in answer) {
      this.refuse(answer.refuse);
      return;
    }
    this.state = 'awaiting-proof';
    this.channel.writeFrame(encodeFrame(answer.challenge, BRIDGE_MAX_FRAME_BYTES));
  }

  private onProof(value: unknown): void {
    const { logger } = this.options;
    const answer = this.handshake.proof(value);
    if ('refuse' in answer) {
      this.refuse(answer.refuse);
      return;
    }
    clearTimeout(this.helloTimer);
    const { client } = answer;
    this.label = `${client.name}#${client.pid}`;
    this.workspace = client.workspace;
    this.state = 'open';
    // Applies from the next frame on, even one already in the same read as the proof.
    this.channel.setMaxInboundBytes(BRIDGE_MAX_FRAME_BYTES);
    this.options.router.addClient(this);
    logger.info('bridge client authenticated', {
      client: this.id,
      name: client.name,
      client_pid: client.pid,
    });
    this.send({ type: 'hello', role: 'host', protocol: PROTOCOL_VERSION, host: this.options.hostInfo() });
  }

  /** Logs why (never a proof or the token) and closes with the refusal. */
  private refuse(refusal: Refusal): void {
    const unauthorized = refusal.code === 'UNAUTHORIZED';
    this.options.logger.warn(
      unauthorized ? 'bridge client rejected: unauthorized' : 'bridge client rejected: protocol mismatch',
      { client: this.id, reason: refusal.reason },
    );
    this.reject(refusal.code, unauthorized ? `${refusal.message} ${this.tokenHint()}` : refusal.message);
  }

  private tokenHint(): string {
    return (
      `Prove the token of ${tokenPath(this.options.home)} in the handshake (run \`x-ipe-uiux install\` ` +
      `if it is missing; XIPE_UIUX_HOME must be the same for the MCP server and the host).`
    );
  }

  private reject(code: ErrorCode, message: string): void {
    if (this.state === 'closing') return;
    clearTimeout(this.helloTimer);
    if (this.state === 'open') this.options.router.removeClient(this);
    const error: LinkError = { type: 'error', error: { code, message } };
    try {
      this.channel.writeFrame(encodeFrame(error, BRIDGE_MAX_FRAME_BYTES));
    } catch {
      // cannot happen for a short message; close anyway
    }
    void this.end();
  }
}
