import { HELLO_TIMEOUT_MS } from '../../constants.js';
import type { HostInfo } from '../../envelopes.js';
import { type ErrorPayload, toErrorPayload } from '../../errors.js';
import { descriptorFileName, type EndpointDescriptor } from '../endpoint-descriptor.js';
import type { Logger } from '../logger.js';
import { HostConnection } from './host-connection.js';

export type ProbeOutcome =
  | { ok: true; host: HostInfo; result?: unknown }
  | { ok: false; error: ErrorPayload };

export interface ProbeOptions {
  /** For the whole probe: connect, hello and the request (default 5 s). */
  timeoutMs?: number;
  /** A command to send once authenticated; its result (or error) is the outcome's. */
  request?: { command: string; params: unknown; timeout_ms: number };
  /** Who asks, in the hello (the host logs it). */
  clientName?: string;
}

const quiet: Logger = {
  file: null,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * One question to one host over a short-lived connection (the CLI's `doctor` and `start`): the
 * same connection and hello as the MCP server's, then at most one request. Always closes the
 * connection; never throws.
 */
export async function probeHost(
  descriptor: EndpointDescriptor,
  token: string,
  options: ProbeOptions = {},
): Promise<ProbeOutcome> {
  const deadline = Date.now() + (options.timeoutMs ?? HELLO_TIMEOUT_MS);
  let connection: HostConnection | null = null;
  try {
    connection = await HostConnection.open({
      key: descriptorFileName(descriptor.pid),
      descriptor,
      token,
      client: { name: options.clientName ?? 'x-ipe-uiux-cli', pid: process.pid },
      helloTimeoutMs: Math.max(1, deadline - Date.now()),
      logger: quiet,
    });
    const host = connection.info;
    if (options.request === undefined) return { ok: true, host };
    const { command, params, timeout_ms } = options.request;
    const result = await connection.request(command, params, timeout_ms, Math.max(1, deadline - Date.now()));
    return { ok: true, host, result };
  } catch (err) {
    return { ok: false, error: toErrorPayload(err) };
  } finally {
    connection?.close();
  }
}
