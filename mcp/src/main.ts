import path from 'node:path';
import { BRIDGE_MAX_FRAME_BYTES } from '../../shared/src/constants.js';
import { createLogger } from '../../shared/src/node/logger.js';
import { logsDir, xipeHome } from '../../shared/src/node/paths.js';
import { createBridgeClient } from './bridge-client.js';
import { StdioServerTransport } from './sdk.js';
import { createServer } from './server.js';

const USAGE = 'Usage: x-ipe-uiux mcp [--workspace DIR]\n';

/** Parses `[--workspace DIR]`; the workspace defaults to the cwd and is made absolute. */
export function parseMcpArgs(argv: string[], cwd = process.cwd()): { workspace: string } {
  let workspace = cwd;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--workspace' || arg.startsWith('--workspace=')) {
      const value = arg === '--workspace' ? argv[++i] : arg.slice('--workspace='.length);
      if (value === undefined || value === '') throw new Error('--workspace needs a directory');
      workspace = value;
    } else {
      throw new Error(`unknown argument '${arg}'`);
    }
  }
  return { workspace: path.resolve(cwd, workspace) };
}

/**
 * `x-ipe-uiux mcp`: wiring only. stdout carries JSON-RPC and nothing else; logs go to stderr and
 * <home>/logs/mcp.log. Resolves (exit 0) when stdin closes or on SIGTERM/SIGINT.
 */
export async function runMcp(argv: string[]): Promise<number> {
  let workspace: string;
  try {
    ({ workspace } = parseMcpArgs(argv));
  } catch (err) {
    process.stderr.write(`x-ipe-uiux mcp: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const home = xipeHome();
  const logger = createLogger({ component: 'mcp', file: path.join(logsDir(home), 'mcp.log') });
  const bridge = createBridgeClient({ home, workspace, logger });
  const server = createServer({ bridge, workspace, logger });
  // The SDK's default 10 MiB read cap would close the session on a larger save_uiux_reference call
  // instead of letting the tool answer PAYLOAD_TOO_LARGE; the bridge frame cap bounds memory instead.
  const transport = new StdioServerTransport(process.stdin, process.stdout, {
    maxBufferSize: BRIDGE_MAX_FRAME_BYTES,
  });

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
  logger.info('mcp server started', { workspace, home, pid: process.pid });
  const reason = await done;
  logger.info('mcp server stopping', { reason });
  await bridge.close();
  await server.close().catch(() => {});
  // Let the process exit even if the client left stdin open (SIGTERM case).
  process.stdin.destroy();
  return 0;
}
