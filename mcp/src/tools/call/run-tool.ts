import type { z } from 'zod';
import { QUEUE_WAIT_LIMIT_MS, QUEUE_WAIT_MARGIN_MS } from '#shared/commands/capture-queue.js';
import { Deadlines } from '#shared/deadlines.js';
import type { Progress } from '#shared/envelopes.js';
import { validationError, XipeError } from '#shared/errors.js';
import { type AuditEntry, type AuditLog, type AuditTarget, auditTarget } from '../../audit-log.js';
import type { CallToolResult } from '../../sdk.js';
import type { AnyTool, ToolContext, ToolOutput } from '../define-tool.js';
import { type TimeoutSettings, timeoutSettings, toolTimeoutMs } from './timeouts.js';
import { acceptJsonText, jsonTextFields } from './tool-json-schema.js';
import { errorResult, successResult } from './tool-result.js';

export interface RunOptions {
  /** Time limits; without them, 30 s (or XIPE_UIUX_TOOL_TIMEOUT_MS). */
  timeouts?: TimeoutSettings;
  audit?: AuditLog;
  /** MCP session id (Streamable HTTP), recorded in the audit log. */
  session?: string;
}

/**
 * The single place every tool call goes through: validates, runs under a time limit, maps the
 * outcome, and writes the log line and the audit entry (never the arguments themselves).
 */
export async function runTool(
  tool: AnyTool,
  rawArgs: unknown,
  ctx: ToolContext,
  options: RunOptions = {},
): Promise<CallToolResult> {
  const started = performance.now();
  // A client that typed an object or array argument as a string sent it as JSON text: take its value.
  const args = acceptJsonText(tool, rawArgs ?? {});
  const parsed = tool.inputSchema.safeParse(args);
  let result: CallToolResult;
  if (!parsed.success) {
    result = errorResult(argumentsRefused(tool, parsed.error, args), tool.name);
  } else {
    const limitMs = toolTimeoutMs(options.timeouts ?? timeoutSettings(null), tool, parsed.data);
    try {
      result = successResult(await runWithLimit(tool, parsed.data, ctx, limitMs));
    } catch (err) {
      result = errorResult(err, tool.name);
      if (!(err instanceof Error && err.name === 'XipeError')) {
        ctx.logger.error('tool failed unexpectedly', {
          tool: tool.name,
          error: String(err),
          stack: (err as Error).stack,
        });
      }
    }
  }
  const durationMs = Math.round(performance.now() - started);
  const errorCode =
    result.isError === true ? String(result.structuredContent?.error ?? 'INTERNAL_ERROR') : null;
  // The client cancelled (notifications/cancelled) or went away: it never sees this result, so
  // the call did not succeed whatever the handler returned.
  const outcome = ctx.signal.aborted ? 'cancelled' : errorCode === null ? 'ok' : 'error';
  afterAnswer({
    logger: ctx.logger,
    audit: options.audit ?? null,
    time: Date.now(),
    tool: tool.name,
    // Only the targeting fields are kept: a call's payload is not held until the records are written.
    target: auditTarget(parsed.success ? parsed.data : args),
    durationMs,
    outcome,
    errorCode,
    session: options.session,
  });
  return result;
}

/**
 * The VALIDATION_ERROR for arguments the schema refused; when an object or array came as text that
 * is not JSON of that kind, the next step says so.
 */
function argumentsRefused(tool: AnyTool, error: z.ZodError, args: unknown): XipeError {
  const text = jsonTextFields(tool, args).map((field) => `\`${field}\``);
  const hint =
    text.length === 0
      ? undefined
      : `You sent JSON text for ${text.join(', ')}: send ${text.length > 1 ? 'them' : 'it'} as JSON values (an object or array, not a string), or fix the text so it parses.`;
  return validationError(error, `arguments for ${tool.name}`, args, hint);
}

/** What one call's log line and audit entry are made of, once written. */
interface CallRecord {
  logger: ToolContext['logger'];
  audit: AuditLog | null;
  /** When the call ended (ms since the epoch). */
  time: number;
  tool: string;
  target: AuditTarget;
  durationMs: number;
  outcome: AuditEntry['outcome'];
  errorCode: string | null;
  session: string | undefined;
}

function auditEntry(record: CallRecord): AuditEntry {
  const { outcome, errorCode, session } = record;
  return {
    time: new Date(record.time).toISOString(),
    tool: record.tool,
    target: record.target,
    duration_ms: record.durationMs,
    outcome,
    ...(outcome === 'error' && errorCode !== null ? { error_code: errorCode } : {}),
    ...(session !== undefined ? { session } : {}),
  };
}

/**
 * Each call's log line and audit entry are written after its answer, in batches: whatever calls
 * ended within RECORD_DELAY_MS (or MAX_WAITING of them) go to mcp.log and audit.log in one write
 * each, instead of three writes per call beside the agent's next request. `writeCallRecords` writes
 * what is waiting at once; the server calls it when it closes and the process when it exits, so a
 * stopping server loses nothing (a killed one at most the last RECORD_DELAY_MS).
 */
const RECORD_DELAY_MS = 100;
const MAX_WAITING = 256;
let waiting: CallRecord[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
let exitHooked = false;

function afterAnswer(record: CallRecord): void {
  waiting.push(record);
  if (waiting.length >= MAX_WAITING) {
    writeCallRecords();
    return;
  }
  if (timer !== null) return;
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', writeCallRecords);
  }
  timer = setTimeout(writeCallRecords, RECORD_DELAY_MS);
  timer.unref();
}

export function writeCallRecords(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  const records = waiting;
  waiting = [];
  for (let i = 0; i < records.length; ) {
    // Consecutive records of one logger and one audit log (every call, in practice) in one write each.
    const { logger, audit } = records[i] as CallRecord;
    let end = i + 1;
    while (end < records.length && records[end]?.logger === logger && records[end]?.audit === audit) end += 1;
    const run = records.slice(i, end);
    const logAll = (): void => {
      for (const { tool, outcome, errorCode, durationMs } of run) {
        const said = outcome === 'error' ? errorCode : outcome === 'ok' ? 'success' : outcome;
        logger.info('tool call', { tool, outcome: said, duration_ms: durationMs });
      }
    };
    if (logger.batch !== undefined) logger.batch(logAll);
    else logAll();
    audit?.record(...run.map(auditEntry));
    i = end;
  }
}

/** The time limits of the calls in flight (one timer for all). */
const limits = new Deadlines();

/** How long a call the browser says is queued may wait (the extension's own limit comes first). */
const QUEUED_MAX_MS = QUEUE_WAIT_LIMIT_MS + 3 * QUEUE_WAIT_MARGIN_MS;

/**
 * Runs the handler with a signal that aborts when the client cancels or the limit passes. At the
 * limit the call answers TIMEOUT at once, whatever the handler is waiting for. While the browser
 * says the call waits its turn (a capture queued behind others), the limit is paused, and it
 * counts again in full once the call starts: a call never times out because it waited.
 */
async function runWithLimit(
  tool: AnyTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  limitMs: number,
): Promise<ToolOutput> {
  const controller = new AbortController();
  const forward = (): void => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) forward();
  else ctx.signal.addEventListener('abort', forward, { once: true });
  let expire: (err: XipeError) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    expire = reject;
  });
  const onLimit = () => {
    const err = new XipeError(
      'TIMEOUT',
      `${tool.name} did not finish within ${limitMs} ms and was abandoned (the browser may still complete it). ` +
        'Call bridge_status to check the links, then retry; for a longer limit pass `timeout_ms` where the tool ' +
        `has it, or set tool_timeouts.${tool.name} (ms) in config.json or XIPE_UIUX_TOOL_TIMEOUT_MS.`,
      { timeout_ms: limitMs },
    );
    controller.abort(err);
    expire(err);
  };
  let met = limits.add(limitMs, onLimit);
  const progress = (p: Progress): void => {
    met();
    met = limits.add(p.state === 'queued' ? QUEUED_MAX_MS + limitMs : limitMs, onLimit);
    ctx.progress?.(p);
  };
  expired.catch(() => undefined);
  try {
    return await Promise.race([tool.handler(args, { ...ctx, signal: controller.signal, progress }), expired]);
  } finally {
    met();
    ctx.signal.removeEventListener('abort', forward);
  }
}
