import type { LogEntry, Logger, LogLevel } from '#shared/node/logger.js';

/**
 * MCP `logging`: a client that sends `logging/setLevel` receives the server's own log lines at
 * that level and above as `notifications/message`. Until it asks, nothing is sent (stdout is the
 * agent's wire; unasked-for traffic only costs it). The file and stderr logs are unaffected.
 */

export const MCP_LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

const FROM_OURS: Record<LogLevel, McpLogLevel> = {
  debug: 'debug',
  info: 'info',
  warn: 'warning',
  error: 'error',
};

export function isMcpLogLevel(value: unknown): value is McpLogLevel {
  return typeof value === 'string' && (MCP_LOG_LEVELS as readonly string[]).includes(value);
}

export interface LogNotification {
  level: McpLogLevel;
  logger: string;
  data: Record<string, unknown>;
}

/**
 * Forwards one session's log lines once its client asks (`setLevel`); until then it is not
 * subscribed, so the process logger builds no entry for it on any line, at any level. `send`
 * delivers a notification; a failed send is dropped (never logged again, which would loop).
 * Returns the level setter and an unsubscribe.
 */
export function forwardLogs(
  logger: Logger,
  send: (notification: LogNotification) => Promise<void>,
): { setLevel(level: McpLogLevel): void; close(): void } {
  let threshold = 0;
  let unsubscribe: (() => void) | null = null;
  const listener = (entry: LogEntry): void => {
    const level = FROM_OURS[entry.level];
    if (MCP_LOG_LEVELS.indexOf(level) < threshold) return;
    void send({ level, logger: entry.component, data: { message: entry.msg, ...entry.fields } }).catch(
      () => {},
    );
  };
  let closed = false;
  return {
    setLevel(level) {
      threshold = MCP_LOG_LEVELS.indexOf(level);
      if (unsubscribe === null && !closed) unsubscribe = logger.subscribe?.(listener) ?? (() => {});
    },
    close() {
      closed = true;
      unsubscribe?.();
      unsubscribe = null;
    },
  };
}
