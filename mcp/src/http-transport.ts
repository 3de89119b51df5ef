import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../shared/src/node/logger.js';
import {
  isInitializeRequest,
  loadStreamableHttp,
  type McpServer,
  type StreamableHTTPServerTransport,
} from './sdk.js';

/**
 * Optional Streamable HTTP front for clients that cannot spawn a stdio server. Loopback only,
 * bearer token required, Host/Origin checked against DNS rebinding — all before any MCP
 * processing. One McpServer per MCP session (the SDK's stateful mode).
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
  createSession: () => McpServer;
  logger: Logger;
  /** Request bodies over this are refused with 413. */
  maxBodyBytes: number;
}

export interface HttpServerHandle {
  url: string;
  port: number;
  close(): Promise<void>;
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
export function refuseRequest(headers: RequestHeaders, port: number, token: string): Refusal {
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
  server: McpServer;
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const { logger } = options;
  const { StreamableHTTPServerTransport } = await loadStreamableHttp();
  const sessions = new Map<string, Session>();
  let port = options.port;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const refusal = refuseRequest(
      { host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization },
      port,
      options.token,
    );
    if (refusal !== null) {
      logger.warn('http request refused', { status: refusal.status, method: req.method, path: pathname });
      if (refusal.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="x-ipe-uiux"');
      return sendJson(res, refusal.status, {
        error: refusal.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN',
        message: refusal.message,
      });
    }
    if (pathname !== MCP_PATH) {
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
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
        logger.info('http session opened', { session: id });
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && sessions.delete(id)) logger.info('http session closed', { session: id });
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

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
  const url = `http://${LOOPBACK_HOST}:${port}${MCP_PATH}`;
  return {
    url,
    port,
    async close() {
      await Promise.allSettled([...sessions.values()].map((s) => s.server.close()));
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
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
