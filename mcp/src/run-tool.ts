import { validationError, XipeError } from '../../shared/src/errors.js';
import { memoizedSafeParse } from '../../shared/src/parse-memo.js';
import { withTimeout } from '../../shared/src/with-timeout.js';
import { type AuditLog, auditTarget } from './audit-log.js';
import type { CallToolResult } from './sdk.js';
import { type TimeoutSettings, timeoutSettings, toolTimeoutMs } from './timeouts.js';
import { errorResult, successResult } from './tool-result.js';
import type { AnyTool, ToolContext, ToolOutput } from './tools/define-tool.js';

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
  // Agents repeat a call with the same arguments (the same script into the same tab): parsed once.
  const parsed = memoizedSafeParse(tool.inputSchema, rawArgs ?? {});
  let result: CallToolResult;
  if (!parsed.success) {
    result = errorResult(
      validationError(parsed.error, `arguments for ${tool.name}`, rawArgs ?? {}),
      tool.name,
    );
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
  const time = new Date().toISOString();
  afterAnswer(() => {
    ctx.logger.info('tool call', {
      tool: tool.name,
      outcome: outcome === 'error' ? errorCode : outcome === 'ok' ? 'success' : outcome,
      duration_ms: durationMs,
    });
    options.audit?.record({
      time,
      tool: tool.name,
      target: auditTarget(parsed.success ? parsed.data : rawArgs),
      duration_ms: durationMs,
      outcome,
      ...(outcome === 'error' && errorCode !== null ? { error_code: errorCode } : {}),
      ...(options.session !== undefined ? { session: options.session } : {}),
    });
  });
  return result;
}

/**
 * Each call's log line and audit entry are written once its answer is on its way (three file
 * writes that used to come before it): a setImmediate runs after the promise turns in which the
 * SDK sends the answer. `writeCallRecords` writes what is still waiting at once; the server calls
 * it when it closes, so nothing is lost when the process stops.
 */
const waiting: Array<() => void> = [];
let scheduled = false;

function afterAnswer(write: () => void): void {
  waiting.push(write);
  if (scheduled) return;
  scheduled = true;
  setImmediate(writeCallRecords);
}

export function writeCallRecords(): void {
  scheduled = false;
  for (const write of waiting.splice(0)) write();
}

/**
 * Runs the handler with a signal that aborts when the client cancels or the limit passes. At the
 * limit the call answers TIMEOUT at once, whatever the handler is waiting for.
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
  try {
    return await withTimeout(tool.handler(args, { ...ctx, signal: controller.signal }), limitMs, () => {
      const err = new XipeError(
        'TIMEOUT',
        `${tool.name} did not finish within ${limitMs} ms and was abandoned (the browser may still complete it). ` +
          'Call bridge_status to check the links, then retry; for a longer limit pass `timeout_ms` where the tool ' +
          `has it, or set tool_timeouts.${tool.name} (ms) in config.json or XIPE_UIUX_TOOL_TIMEOUT_MS.`,
        { timeout_ms: limitMs },
      );
      controller.abort(err);
      throw err;
    });
  } finally {
    ctx.signal.removeEventListener('abort', forward);
  }
}
