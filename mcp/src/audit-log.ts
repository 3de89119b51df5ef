import fs from 'node:fs';
import path from 'node:path';
import { logsDir } from '#shared/node/paths.js';

/**
 * One JSON line per tool call in `<home>/logs/audit.log`: who was targeted, how long it took and
 * how it ended. Never arguments as such: only the targeting fields below, so script bodies,
 * reference data, comments and images can never end up in it.
 */
export interface AuditEntry {
  time: string;
  tool: string;
  /** Only the fields of AUDIT_TARGET_FIELDS that the call gave, as plain values. */
  target: AuditTarget;
  duration_ms: number;
  /** `cancelled`: the client cancelled the call (or went away) before it answered. */
  outcome: 'ok' | 'error' | 'cancelled';
  /** The contract's error code when outcome is `error`. */
  error_code?: string;
  /** The MCP session (Streamable HTTP only). */
  session?: string;
}

export type AuditTarget = Partial<Record<(typeof AUDIT_TARGET_FIELDS)[number], string | number | boolean>>;

export interface AuditLog {
  /** Appends the entries in one write. */
  record(...entries: AuditEntry[]): void;
  readonly file: string | null;
}

/** Which arguments say what a call acted on. Anything else is payload and never logged. */
export const AUDIT_TARGET_FIELDS = [
  'tab_id',
  'url_contains',
  'page_index',
  'browser',
  'idea_folder',
] as const;

/** Long enough to recognise a URL fragment or idea name, short enough that nothing is smuggled in. */
const MAX_TARGET_CHARS = 200;

export const auditLogPath = (home: string): string => path.join(logsDir(home), 'audit.log');

/** Picks the targeting fields of raw (possibly invalid) arguments; wrong types are left out. */
export function auditTarget(args: unknown): AuditTarget {
  const target: AuditTarget = {};
  if (args === null || typeof args !== 'object') return target;
  for (const field of AUDIT_TARGET_FIELDS) {
    if (!Object.hasOwn(args, field)) continue;
    const value: unknown = (args as Record<string, unknown>)[field];
    if (typeof value === 'string') {
      target[field] = value.length > MAX_TARGET_CHARS ? `${value.slice(0, MAX_TARGET_CHARS)}…` : value;
    } else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') {
      target[field] = value;
    }
  }
  return target;
}

/**
 * Appends to `file` (created 0600, folder 0700). A log that cannot be opened or written never
 * stops a tool call: `onError` is told once, and the calls go on unaudited.
 */
export function createAuditLog(options: { file: string; onError?: (error: Error) => void }): AuditLog {
  let fd: number | null = null;
  let failed = false;
  const fail = (err: unknown): void => {
    if (failed) return;
    failed = true;
    options.onError?.(err instanceof Error ? err : new Error(String(err)));
  };
  try {
    fs.mkdirSync(path.dirname(options.file), { recursive: true, mode: 0o700 });
    fd = fs.openSync(options.file, 'a', 0o600);
  } catch (err) {
    fail(err);
  }
  return {
    file: options.file,
    record(...entries) {
      if (fd === null || entries.length === 0) return;
      try {
        fs.writeSync(fd, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
      } catch (err) {
        fail(err);
      }
    },
  };
}
