import type { ErrorPayload } from '#shared/errors.js';
import { tokenPath } from '#shared/node/paths.js';
import type { BridgeReport, HostLinkReport } from './bridge.js';
import type { Link } from './host-pool.js';

/** What `bridge_status` and doctor show of every link: one row per descriptor, usable or not. */
export function bridgeReport(
  links: readonly Link[],
  context: {
    home: string;
    runtimeDir: string;
    runtimeDirRefused: ErrorPayload | null;
    tokenPresent: boolean;
    queuedEvents: number;
  },
): BridgeReport {
  const hosts: HostLinkReport[] = links.map((link) => ({
    descriptor_path: link.descriptorPath,
    pid: link.descriptor?.pid ?? null,
    pid_alive: link.pidAlive,
    endpoint: link.descriptor?.endpoint ?? null,
    reachable: link.connection !== null && !link.connection.closed,
    error: link.error,
    host: link.connection?.info ?? null,
  }));
  return {
    home: context.home,
    runtime_dir: context.runtimeDir,
    runtime_dir_refused: context.runtimeDirRefused,
    token_file: tokenPath(context.home),
    token_present: context.tokenPresent,
    hosts,
    queued_events: context.queuedEvents,
  };
}
