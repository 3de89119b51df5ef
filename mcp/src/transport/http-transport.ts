import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '#shared/node/logger.js';
import {
  isInitializeRequest,
  loadStreamableHttp,
  type StreamableHTTPServerTransport,
  type Transport,
} from '../sdk.js';
import { batchesAllowed, INVALID_REQUEST, ProtocolGuard } from './protocol-guard.js';
import { MemoryEventStore } from './sse-event-store.js';

/**
 * Optional Streamable HTTP front for clients that cannot spawn a stdio server. Loopback only,
 * bearer token required (or, with `tokenInPath`, a secret path segment), Host/Origin checked
 * against DNS rebinding — all before any MCP processing. One server per MCP session (the SDK's
 * stateful mode); a session nobody used for `idleTimeoutMs` is closed and forgotten.
 */

/** The only address this server ever binds (never 0.0.0.0). */
export const LOOPBACK_HOST = '127.0.0.1';
export const MCP_PATH = '/mcp';

export interface HttpServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Contents of `<home>/token`. */
  token: string;
  /** A fresh server for each new session (factories do no I/O). */
  createSession: () => SessionServer;
  logger: Logger;
  /** Request bodies over this are refused with 413. */
  maxBodyBytes: number;
  /**
   * Also accept `/<secret>/mcp` without a header, the secret derived from the token: for clients
   * that cannot send headers. The URL is then a credential (see README).
   */
  tokenInPath?: boolean;
  /** A session with no request open for this long is closed. Default 30 min. */
  idleTimeoutMs?: number;
  /** SSE `retry` field: how soon a client whose stream broke should reconnect. */
  retryIntervalMs?: number;
}

/** What a session needs of an MCP server. */
export interface SessionServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

export interface HttpServerHandle {
  /** The URL clients use (with the secret path segment when `tokenInPath`). */
  url: string;
  port: number;
  /** Open sessions (for tests and the log). */
  sessionCount(): number;
  close(): Promise<void>;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_RETRY_MS = 2_000;

/**
 * The path secret of `tokenInPath`: an HMAC of the token, so the URL (which ends up in client
 * configs and process lists) does not reveal the token the native host bridge trusts, and stays
 * the same across restarts (configs keep working) until the token changes.
 */
export function pathSecret(token: string): string {
  return createHmac('sha256', token).update('x-ipe-uiux mcp http path').digest('base64url');
}

export interface RequestHeaders {
  host?: string | undefined;
  origin?: string | undefined;
  authorization?: string | undefined;
}

export type Refusal = { status: 401 | 403; message: string } | null;

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Why a request may not reach MCP, or null. Host must name the loopback address (or localhost)
 * with our port; an Origin, when a browser sends one, must be that same loopback origin; then the
 * bearer token must match (compared in constant time, over digests so the length leaks nothing).
 */
export function refuseRequest(
  headers: RequestHeaders,
  port: number,
  token: string,
  options: { pathAuthorized?: boolean } = {},
): Refusal {
  const allowedHosts = [`${LOOPBACK_HOST}:${port}`, `localhost:${port}`];
  if (headers.host === undefined || !allowedHosts.includes(headers.host.toLowerCase())) {
    return {
      status: 403,
      message: `Host header must be one of ${allowedHosts.join(', ')} (DNS rebinding protection).`,
    };
  }
  if (
    headers.origin !== undefined &&
    !allowedHosts.some((h) => headers.origin?.toLowerCase() === `http://${h}`)
  ) {
    return {
      status: 403,
      message: `Origin ${headers.origin} is not allowed; this server serves local clients only.`,
    };
  }
  if (options.pathAuthorized === true) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  const given = match?.[1];
  if (given === undefined || !timingSafeEqual(digest(given), digest(token))) {
    return {
      status: 401,
      message:
        'Missing or wrong bearer token: send `Authorization: Bearer <token>` with the contents of the token file ' +
        'in XIPE_UIUX_HOME (see `x-ipe-uiux doctor`).',
    };
  }
  return null;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  guard: ProtocolGuard;
  server: SessionServer;
  /** HTTP requests of this session still open (an SSE stream counts while it is open). */
  open: number;
  lastActive: number;
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const { logger } = options;
  const { StreamableHTTPServerTransport } = await loadStreamableHttp();
  const sessions = new Map<string, Session>();
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const secretPath = options.tokenInPath === true ? `/${pathSecret(options.token)}${MCP_PATH}` : null;
  let port = options.port;

  /** Counts the request as activity for as long as its response is open. */
  const track = (session: Session, res: http.ServerResponse): void => {
    session.open += 1;
    session.lastActive = Date.now();
    res.once('close', () => {
      session.open -= 1;
      session.lastActive = Date.now();
    });
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const bySecret = secretPath !== null && secretMatches(pathname, secretPath);
    const refusal = refuseRequest(
      { host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization },
      port,
      options.token,
      { pathAuthorized: bySecret },
    );
    if (refusal !== null) {
      // Never the path itself: it may hold the secret.
      logger.warn('http request refused', {
        status: refusal.status,
        method: req.method,
        path_is_mcp: pathname === MCP_PATH,
      });
      if (refusal.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="x-ipe-uiux"');
      return sendJson(res, refusal.status, {
        error: refusal.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN',
        message: refusal.message,
      });
    }
    if (pathname !== MCP_PATH && !bySecret) {
      return sendJson(res, 404, { error: 'NOT_FOUND', message: `The MCP endpoint is ${MCP_PATH}.` });
    }
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJsonBody(req, options.maxBodyBytes);
      if (!read.ok) return sendJsonRpcError(res, read.status, read.code, read.message);
      body = read.value;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session === undefined) {
        return sendJsonRpcError(res, 404, -32001, 'Session not found: initialize a new session.');
      }
      const version = session.guard.protocolVersion;
      if (Array.isArray(body) && version !== null && !batchesAllowed(version)) {
        return sendJsonRpcError(
          res,
          400,
          INVALID_REQUEST,
          `Invalid Request: protocol version ${version} has no JSON-RPC batches; send one message per request.`,
        );
      }
      track(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return sendJsonRpcError(
        res,
        400,
        -32000,
        'Bad request: no valid mcp-session-id; send initialize first.',
      );
    }
    const server = options.createSession();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A store is what makes the SDK send the priming event (event id + retry) and lets a client
      // resume a broken stream with Last-Event-ID.
      eventStore: new MemoryEventStore(),
      retryInterval: options.retryIntervalMs ?? DEFAULT_RETRY_MS,
      onsessioninitialized: (id) => {
        sessions.set(id, session);
        logger.info('http session opened', { session: id, sessions: sessions.size });
      },
    });
    const guard = new ProtocolGuard(transport);
    const session: Session = { transport, guard, server, open: 0, lastActive: Date.now() };
    guard.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && sessions.delete(id))
        logger.info('http session closed', { session: id, sessions: sessions.size });
    };
    await server.connect(guard);
    track(session, res);
    await transport.handleRequest(req, res, body);
  };

  /** Closes sessions that have had no open request for idleMs (clients that never sent DELETE). */
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (session.open > 0 || now - session.lastActive < idleMs) continue;
        sessions.delete(id);
        logger.info('http session expired', {
          session: id,
          idle_ms: now - session.lastActive,
          sessions: sessions.size,
        });
        void session.server.close().catch(() => {});
      }
    },
    Math.min(Math.max(Math.floor(idleMs / 4), 50), 60_000),
  );
  sweep.unref();

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      logger.error('http request failed', { error: String(err) });
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal server error.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, LOOPBACK_HOST, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  port = (httpServer.address() as AddressInfo).port;
  const url = `http://${LOOPBACK_HOST}:${port}${secretPath ?? MCP_PATH}`;
  return {
    url,
    port,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await Promise.allSettled([...sessions.values()].map((s) => s.server.close()));
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** Constant-time comparison of the request path with the secret one. */
function secretMatches(pathname: string, secretPath: string): boolean {
  return timingSafeEqual(digest(pathname), digest(secretPath));
}

type BodyRead =
  | { ok: true; value: unknown }
  | { ok: false; status: 400 | 413; code: number; message: string };

async function readJsonBody(req: http.IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const tooLarge: BodyRead = {
    ok: false,
    status: 413,
    code: -32600,
    message: `Request body over ${maxBytes} bytes.`,
  };
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return tooLarge;
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the cap the rest is read and dropped (not kept), so the 413 still reaches the client.
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= maxBytes) chunks.push(chunk as Buffer);
  }
  if (size > maxBytes) return tooLarge;
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the body is not JSON.' };
  }
}

function sendJson(res: http.ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

function sendJsonRpcError(res: http.ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}
