import path from 'node:path';
import type { Event } from '#shared/envelopes.js';
import type { ErrorPayload } from '#shared/errors.js';
import { toErrorPayload, XipeError } from '#shared/errors.js';
import { HELLO_TIMEOUT_MS } from '#shared/index.js';
import { type FoundHost, inspectDescriptor } from '#shared/node/bridge/discovery.js';
import { HostConnection } from '#shared/node/bridge/host-connection.js';
import { LinkLost } from '#shared/node/bridge/link-lost.js';
import { type EndpointDescriptor, listDescriptorFiles } from '#shared/node/endpoint-descriptor.js';
import type { Logger } from '#shared/node/logger.js';
import { runtimeDir, tokenPath } from '#shared/node/paths.js';
import { trustedRuntimeDir } from '#shared/node/runtime-dir.js';
import { readToken } from '#shared/node/token.js';
import { DirChanges } from './dir-changes.js';

const NO_HOST_FIX =
  'Open Chrome/Chromium with the X-IPE extension (or run `x-ipe-uiux start`), then check `x-ipe-uiux doctor`.';

export interface HostPoolOptions {
  home: string;
  workspace: string;
  logger: Logger;
  helloTimeoutMs?: number;
  platform?: NodeJS.Platform;
  isPidAlive?: (pid: number) => boolean;
  /** An event a host pushed. */
  onEvent: (event: Event, connection: HostConnection) => void;
}

/** One descriptor file found in the runtime dir and what became of it. */
export interface Link {
  file: string;
  descriptorPath: string;
  descriptor: EndpointDescriptor | null;
  pidAlive: boolean;
  connection: HostConnection | null;
  error: ErrorPayload | null;
}

/**
 * Discovers hosts by listing `<runtime dir>/h-*.json`, keeps one authenticated connection per host
 * and reuses it. A call re-lists the directory unless nothing in it changed since a listing whose
 * every descriptor got an open connection (Linux: `DirChanges`; a readdir and a link per host were
 * ~5 % of a repeated inject_script's MCP server CPU), so a restarted or newly started host is
 * found without restarting the MCP server.
 */
export class HostPool {
  private dirValue: string;
  /** Why the runtime dir was refused at the last scan (nothing in it is read), else null. */
  private refusal: ErrorPayload | null = null;
  private readonly connections = new Map<string, HostConnection>();
  private readonly connecting = new Map<string, Promise<HostConnection>>();
  private closedValue = false;
  /** What this event-loop turn already found: a tool call asks twice (route, then send). */
  private thisTurn: { files: string[]; live: HostConnection[] | null } | null = null;
  /** Descriptor file → its path (path.join, in the hot path of every call, costs as much as a readdir). */
  private readonly paths = new Map<string, string>();
  private dirChanges: DirChanges;
  /** The connections of the last scan when it linked every descriptor and the dir was watched. */
  private settled: HostConnection[] | null = null;

  constructor(private readonly options: HostPoolOptions) {
    this.dirValue = runtimeDir(options.home, options.platform);
    this.dirChanges = this.watch(this.dirValue);
  }

  /** The runtime dir looked in: the one recorded in the home, else this environment's choice. */
  get dir(): string {
    return this.dirValue;
  }

  /** Why the runtime dir was refused at the last scan, else null. */
  get runtimeDirRefusal(): ErrorPayload | null {
    return this.refusal;
  }

  get closed(): boolean {
    return this.closedValue;
  }

  /** Open connections after a scan; BACKEND_UNREACHABLE (LinkLost when retrying may help) if none. */
  async live(): Promise<HostConnection[]> {
    if (this.closedValue) throw new XipeError('BACKEND_UNREACHABLE', 'The MCP server is shutting down.');
    const known = (this.dirChanges.unchanged ? this.settled : null) ?? this.thisTurn?.live;
    if (known?.every((c) => !c.closed) === true) return known;
    const links = await this.scan();
    const live = links.flatMap((l) => (l.connection !== null ? [l.connection] : []));
    if (live.length > 0) {
      if (this.thisTurn !== null) this.thisTurn.live = live;
      return live;
    }
    if (this.refusal !== null) throw XipeError.from(this.refusal);
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
  async scan(): Promise<Link[]> {
    if (!this.checkDir()) {
      for (const connection of this.connections.values()) connection.close();
      this.connections.clear();
      this.settled = null;
      return [];
    }
    // Watched from before the listing, so a change after it ends the unchanged period.
    const wasWatched = this.dirChanges.unchanged;
    const watched = this.dirChanges.mark();
    if (watched && !wasWatched) this.thisTurn = null;
    const files = this.descriptorFiles();
    for (const [file, connection] of this.connections) {
      if (!files.includes(file)) {
        connection.close(); // the host removed its descriptor: it is going away
        this.connections.delete(file);
      }
    }
    const links = await Promise.all(files.map((file) => this.link(file)));
    const connections = links.flatMap((l) => (l.connection !== null ? [l.connection] : []));
    // A descriptor that failed (stale, refused, wrong token) is tried again on the next call.
    this.settled = watched && links.length > 0 && connections.length === links.length ? connections : null;
    return links;
  }

  /**
   * Finds the runtime dir again (a host may have recorded another one) and applies the checks
   * every client applies before reading it: false, with the refusal kept and logged, when the
   * record or the folder is unsafe.
   */
  private checkDir(): boolean {
    const { home, platform, logger } = this.options;
    try {
      const { dir } = trustedRuntimeDir(home, { platform });
      this.refusal = null;
      if (dir !== this.dirValue) {
        this.dirChanges.close();
        this.dirValue = dir;
        this.dirChanges = this.watch(dir);
        this.paths.clear();
        this.thisTurn = null;
      }
      return true;
    } catch (err) {
      this.refusal = toErrorPayload(err);
      logger.warn('runtime dir refused', { error: this.refusal.message });
      return false;
    }
  }

  private watch(dir: string): DirChanges {
    return new DirChanges(dir, (this.options.platform ?? process.platform) === 'linux');
  }

  /** The token, or null when there is none; throws UNAUTHORIZED when another user owns the file. */
  readToken(): string | null {
    const { home, logger, platform } = this.options;
    return readToken(home, {
      platform,
      onRepaired: (message) => logger.warn('token file permissions repaired', { detail: message }),
    });
  }

  /** The full path of a descriptor file of this pool's runtime dir. */
  descriptorPath(file: string): string {
    let full = this.paths.get(file);
    if (full === undefined) {
      full = path.join(this.dir, file);
      if (this.paths.size >= 64) this.paths.clear(); // a few hosts per session; never unbounded
      this.paths.set(file, full);
    }
    return full;
  }

  async close(): Promise<void> {
    this.closedValue = true;
    this.dirChanges.close();
    for (const connection of this.connections.values()) connection.close();
    this.connections.clear();
    const late = await Promise.allSettled(this.connecting.values());
    for (const outcome of late) if (outcome.status === 'fulfilled') outcome.value.close();
  }

  /**
   * The descriptor files, listed once per event-loop turn: a tool call that resolves its route
   * (hosts) and then sends (request) in the same turn lists the directory and links its hosts
   * once (`live`). A connection that closed is never reused: nothing closes within a turn, and
   * `live` checks again.
   */
  private descriptorFiles(): string[] {
    if (this.thisTurn !== null) return this.thisTurn.files;
    let files: string[];
    try {
      files = listDescriptorFiles(this.dir);
    } catch (err) {
      this.options.logger.warn('cannot list the runtime dir', {
        dir: this.dir,
        error: (err as Error).message,
      });
      files = [];
    }
    this.thisTurn = { files, live: null };
    setImmediate(() => {
      this.thisTurn = null;
    });
    return files;
  }

  private async link(file: string): Promise<Link> {
    const open = this.connections.get(file);
    if (open !== undefined && !open.closed) {
      return {
        file,
        descriptorPath: this.descriptorPath(file),
        descriptor: open.descriptor,
        pidAlive: true,
        connection: open,
        error: null,
      };
    }
    const found: FoundHost = await inspectDescriptor(this.dir, file, {
      removeStale: true,
      ...(this.options.isPidAlive !== undefined ? { isPidAlive: this.options.isPidAlive } : {}),
    });
    const link: Link = {
      file,
      descriptorPath: found.path,
      descriptor: found.descriptor,
      pidAlive: found.pidAlive,
      connection: null,
      error: found.error,
    };
    if (found.error?.code === 'UNAUTHORIZED') {
      this.options.logger.warn('host refused before connecting', { file, error: found.error.message });
    }
    if (found.error !== null || found.descriptor === null) return link;
    try {
      return { ...link, connection: await this.connect(file, found.descriptor) };
    } catch (err) {
      return { ...link, error: toErrorPayload(err) };
    }
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
      onEvent: this.options.onEvent,
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
        if (this.closedValue) c.close();
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
}
