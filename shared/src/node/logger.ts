import fs from 'node:fs';
import path from 'node:path';

/**
 * One logger per process. stdout is a wire in the host and the MCP server, so logs go to stderr
 * and, when a file is given, to that file as JSON lines. Level from XIPE_UIUX_LOG_LEVEL.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LogEntry {
  level: LogLevel;
  component: string;
  msg: string;
  fields: Record<string, unknown>;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  readonly file: string | null;
  /**
   * Every entry, whatever the level threshold (the listener filters), e.g. for MCP log
   * notifications. An entry logged by a listener itself is not passed on again. Returns unsubscribe.
   */
  subscribe?(listener: (entry: LogEntry) => void): () => void;
  /**
   * Runs `fn`; the lines it logs go to the file and to stderr in one write each when it returns
   * (a burst of per-call lines costs two system calls, not two per line).
   */
  batch?(fn: () => void): void;
}

export interface LoggerOptions {
  component: string;
  file?: string | null;
  level?: LogLevel;
  /** Defaults to process.stderr. Never stdout. */
  stderr?: NodeJS.WritableStream | null;
}

export function parseLogLevel(value: string | undefined, fallback: LogLevel = 'info'): LogLevel {
  return value !== undefined && Object.hasOwn(LEVELS, value) ? (value as LogLevel) : fallback;
}

export function createLogger(options: LoggerOptions): Logger {
  const threshold = LEVELS[options.level ?? parseLogLevel(process.env.XIPE_UIUX_LOG_LEVEL)];
  const stderr = options.stderr === undefined ? process.stderr : options.stderr;
  // A reader that went away fails writes asynchronously (EPIPE as an 'error' event): stop writing
  // there. Unhandled, that error reached the crash handler, which logged it, failing again, forever.
  let stderrUsable = stderr !== null;
  stderr?.on('error', () => {
    stderrUsable = false;
  });
  let fd: number | null = null;
  if (options.file) {
    try {
      fs.mkdirSync(path.dirname(options.file), { recursive: true, mode: 0o700 });
      fd = fs.openSync(options.file, 'a', 0o600);
    } catch {
      fd = null; // a log file we cannot open must never stop the process
    }
  }
  const listeners = new Set<(entry: LogEntry) => void>();
  let notifying = false;
  /** Lines logged inside `batch`, written when it returns; null outside one. */
  let batched: string[] | null = null;
  const output = (text: string): void => {
    if (fd !== null) {
      try {
        fs.writeSync(fd, text);
      } catch {
        // disk full or file removed: keep going on stderr
      }
    }
    try {
      if (stderrUsable) stderr?.write(text);
    } catch {
      // stderr closed (e.g. the browser went away)
    }
  };
  const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (listeners.size > 0 && !notifying) {
      notifying = true;
      try {
        for (const listener of listeners)
          listener({ level, component: options.component, msg, fields: fields ?? {} });
      } finally {
        notifying = false;
      }
    }
    if (LEVELS[level] < threshold) return;
    const line = `${JSON.stringify({ time: new Date().toISOString(), level, component: options.component, pid: process.pid, msg, ...fields })}\n`;
    if (batched !== null) batched.push(line);
    else output(line);
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    file: options.file ?? null,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    batch(fn) {
      if (batched !== null) return fn();
      batched = [];
      try {
        fn();
      } finally {
        const lines = batched;
        batched = null;
        if (lines.length > 0) output(lines.join(''));
      }
    },
  };
}
