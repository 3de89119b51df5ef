import path from 'node:path';
import { BRIDGE_MAX_FRAME_BYTES } from '#shared/constants.js';
import { MCP_COMMAND } from '#shared/node/cli-commands.js';
import { commandHelp, parseCommand, UsageError, usageFailure } from '#shared/node/command-line.js';
import { type Config, loadConfig } from '#shared/node/config.js';
import { createLogger, type Logger } from '#shared/node/logger.js';
import { logsDir, tokenPath, xipeHome } from '#shared/node/paths.js';
import { ensureToken } from '#shared/node/token.js';
import { auditLogPath, createAuditLog } from './audit-log.js';
import { createBridgeClient } from './bridge-client/client.js';
import { watchIdeas } from './resources/ideas-watcher.js';
import { createServer, type ServerDeps } from './server.js';
import { timeoutSettings } from './tools/call/timeouts.js';
import type { HttpServerHandle } from './transport/http-transport.js';
import { ProtocolGuard } from './transport/protocol-guard.js';
import { LinearStdioServerTransport } from './transport/stdio-transport.js';

/** How long requests still running at shutdown may take to answer. */
const STOP_GRACE_MS = 5_000;

/** HTTP sessions nobody used for this long are closed (a client that never sent DELETE). */
export const DEFAULT_IDLE_TIMEOUT_S = 30 * 60;

export interface McpArgs {
  workspace: string;
  /** Serve Streamable HTTP instead of stdio. */
  http?: {
    /** 0 = any free port. */
    port: number;
    /** The token as a path segment instead of a header (clients that cannot send headers). */
    tokenInPath: boolean;
    idleTimeoutMs: number;
  };
}

/** The validated options; the workspace defaults to the cwd and is made absolute. */
export function parseMcpArgs(argv: readonly string[], cwd = process.cwd()): McpArgs | 'help' {
  const parsed = parseCommand(MCP_COMMAND, argv);
  if (parsed.help) return 'help';
  const { values } = parsed;
  const workspace = path.resolve(cwd, values.workspace ?? cwd);
  if (values.http === undefined) {
    for (const name of ['token-in-path', 'idle-timeout'] as const) {
      if (values[name] !== undefined) throw new UsageError(`--${name} only applies with --http PORT`);
    }
    return { workspace };
  }
  const port = Number(values.http);
  if (!/^\d+$/.test(values.http) || port > 65_535) {
    throw new UsageError('--http needs a port number (0-65535; 0 picks a free one)');
  }
  const idle = Number(values['idle-timeout'] ?? DEFAULT_IDLE_TIMEOUT_S);
  if (!Number.isFinite(idle) || idle <= 0) {
    throw new UsageError('--idle-timeout needs a number of seconds greater than 0');
  }
  return {
    workspace,
    http: { port, tokenInPath: values['token-in-path'] === true, idleTimeoutMs: Math.round(idle * 1000) },
  };
}

/**
 * `x-ipe-uiux mcp`: wiring only. stdout carries JSON-RPC and nothing else; logs go to stderr and
 * <home>/logs/mcp.log, one audit line per tool call to <home>/logs/audit.log. Over stdio it
 * resolves (exit 0) when stdin closes or on SIGTERM/SIGINT; over HTTP on SIGTERM/SIGINT.
 */
export async function runMcp(argv: string[]): Promise<number> {
  let args: McpArgs | 'help';
  try {
    args = parseMcpArgs(argv);
  } catch (err) {
    return usageFailure(MCP_COMMAND, err);
  }
  if (args === 'help') {
    process.stdout.write(commandHelp(MCP_COMMAND));
    return 0;
  }
  const { workspace } = args;
  const home = xipeHome();
  const logger = createLogger({ component: 'mcp', file: path.join(logsDir(home), 'mcp.log') });
  const timeouts = timeoutSettings(readConfig(home, logger));
  for (const problem of timeouts.problems) logger.warn('timeout setting ignored', { problem });
  const audit = createAuditLog({
    file: auditLogPath(home),
    onError: (err) => logger.warn('audit log unavailable', { file: auditLogPath(home), error: err.message }),
  });
  const bridge = createBridgeClient({ home, workspace, logger });
  const watcher = watchIdeas({ workspace, logger });
  const deps: ServerDeps = { bridge, workspace, logger, audit, timeouts, resourceChanges: watcher };
  try {
    return args.http !== undefined
      ? await serveHttp(args.http, home, deps)
      : await serveStdio(deps, { workspace, home });
  } finally {
    watcher.close();
    await bridge.close();
  }
}

async function serveStdio(deps: ServerDeps, info: { workspace: string; home: string }): Promise<number> {
  const { logger } = deps;
  const server = createServer(deps);
  // Linear-time line splitting (the SDK's reader is quadratic in the message size: ~2 s for one
  // 10 MiB save), capped at the bridge frame limit so an oversized save gets PAYLOAD_TOO_LARGE
  // instead of a closed session.
  const stdio = new LinearStdioServerTransport(process.stdin, process.stdout, {
    maxMessageBytes: BRIDGE_MAX_FRAME_BYTES,
  });
  const transport = new ProtocolGuard(stdio);
  const done = new Promise<string>((resolve) => {
    transport.onclose = () => resolve('transport closed');
    process.stdin.once('end', () => resolve('stdin closed'));
    process.stdin.once('close', () => resolve('stdin closed'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
    // A client that went away makes stdout writes fail with EPIPE: that is the end, not a crash.
    process.stdout.on('error', () => resolve('stdout closed'));
  });
  await server.connect(transport);
  logger.info('mcp server started', { ...info, transport: 'stdio', pid: process.pid });
  const reason = await done;
  logger.info('mcp server stopping', { reason });
  // A client may write its requests and close stdin at once: answer what is still running first.
  await transport.settled(STOP_GRACE_MS);
  await server.close().catch(() => {});
  // Let the process exit even if the client left stdin open (SIGTERM case).
  process.stdin.destroy();
  return 0;
}

async function serveHttp(
  http: NonNullable<McpArgs['http']>,
  home: string,
  deps: ServerDeps,
): Promise<number> {
  const { port } = http;
  const { logger } = deps;
  let token: string;
  try {
    // The same secret the bridge uses; install would create it too.
    token = ensureToken(home, {
      onRepaired: (message) => logger.warn('token file permissions repaired', { detail: message }),
    });
  } catch (err) {
    process.stderr.write(
      `x-ipe-uiux mcp: cannot read or create ${tokenPath(home)}: ${(err as Error).message}\n`,
    );
    return 1;
  }
  let handle: HttpServerHandle;
  try {
    // Loaded only here: the HTTP transport and its SDK pieces stay out of a stdio server's memory.
    const { startHttpServer } = await import('./transport/http-transport.js');
    handle = await startHttpServer({
      port,
      token,
      logger,
      createSession: () => createServer(deps),
      maxBodyBytes: BRIDGE_MAX_FRAME_BYTES,
      tokenInPath: http.tokenInPath,
      idleTimeoutMs: http.idleTimeoutMs,
    });
  } catch (err) {
    process.stderr.write(`x-ipe-uiux mcp: cannot listen on 127.0.0.1:${port}: ${(err as Error).message}\n`);
    return 1;
  }
  process.stderr.write(
    http.tokenInPath
      ? `x-ipe-uiux mcp: listening on ${handle.url} (the path holds a secret: keep this URL private like a password)\n`
      : `x-ipe-uiux mcp: listening on ${handle.url} (send "Authorization: Bearer <contents of ${tokenPath(home)}>")\n`,
  );
  // The log gets the port, never a URL that may hold the path secret.
  logger.info('mcp server started', {
    workspace: deps.workspace,
    home,
    transport: 'http',
    port: handle.port,
    token_in_path: http.tokenInPath,
    idle_timeout_ms: http.idleTimeoutMs,
  });
  const reason = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info('mcp server stopping', { reason });
  await handle.close();
  return 0;
}

/** The config, or null (defaults) when it is unreadable: a broken config.json must not stop the server. */
function readConfig(home: string, logger: Logger): Config | null {
  try {
    return loadConfig(home);
  } catch (err) {
    logger.warn('config unreadable, using defaults', { error: (err as Error).message });
    return null;
  }
}
