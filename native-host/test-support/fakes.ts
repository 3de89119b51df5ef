/**
 * Test doubles for the host's unit tests: a logger that drops everything, a HostInfo, and a
 * handler context for a bridge caller. Lives outside native-host/src so it is never built into
 * the product.
 */
import { PROTOCOL_VERSION } from '#shared/constants.js';
import type { HostInfo } from '#shared/envelopes.js';
import type { Logger } from '#shared/node/logger.js';
import type { CaptureEventSource, ExtensionRequester, HostHandlerContext } from '../src/handlers/types.js';

export const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  file: null,
};

/** A host's status with the extension connected; `over` replaces any field. */
export function fakeHostInfo(over: Partial<HostInfo> = {}): HostInfo {
  return {
    pid: 1,
    host_version: '0',
    protocol: PROTOCOL_VERSION,
    started_at: 'now',
    endpoint: '/e',
    log_file: '',
    extension_connected: true,
    extension: null,
    origin: null,
    ...over,
  };
}

/** What a handler sees when an MCP server in `workspace` calls it; the extension answers with `request`. */
export function bridgeContext(parts: {
  workspace: string;
  request: ExtensionRequester['request'];
  record?: CaptureEventSource['record'];
}): HostHandlerContext {
  return {
    logger: silent,
    home: '/h',
    config: { workspaces: [], max_payload_bytes: 1 } as never,
    env: {},
    hostInfo: () => {
      throw new Error('unused');
    },
    workspace: parts.workspace,
    source: 'bridge',
    payloadBytes: 10,
    signal: new AbortController().signal,
    events: {
      since: () => ({ events: [], dropped: 0, last_seq: 0 }),
      ...(parts.record !== undefined ? { record: parts.record } : {}),
    },
    images: { put: () => undefined, take: () => null },
    extension: { request: parts.request },
  };
}
