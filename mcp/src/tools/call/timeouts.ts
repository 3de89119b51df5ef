import { DEFAULT_TOOL_TIMEOUT_MS } from '#shared/constants.js';
import type { Config } from '#shared/node/config.js';

/** Env override of the default limit for every tool (tests shrink it; users may raise it). */
export const TOOL_TIMEOUT_ENV = 'XIPE_UIUX_TOOL_TIMEOUT_MS';

/**
 * Added to a call's own `timeout_ms`: the tool (or the browser behind it) then reports its own,
 * more precise TIMEOUT first, and this outer limit only catches a tool that would hang anyway.
 */
export const TOOL_TIMEOUT_GRACE_MS = 5_000;

/** setTimeout fires at once above this; a larger configured value means "as long as possible". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Where a tool's time limit comes from, after config and environment are read (once, at start). */
export interface TimeoutSettings {
  /** `tool_timeouts.<tool>` entries of config.json (without `default`). */
  readonly perTool: Readonly<Record<string, number>>;
  /** XIPE_UIUX_TOOL_TIMEOUT_MS, else `tool_timeouts.default`, else 30 s. */
  readonly defaultMs: number;
  /** Ignored settings, for one warning in the log. */
  readonly problems: readonly string[];
}

export function timeoutSettings(
  config: Pick<Config, 'tool_timeouts'> | null,
  env: NodeJS.ProcessEnv = process.env,
): TimeoutSettings {
  const problems: string[] = [];
  const { default: configDefault, ...perTool } = config?.tool_timeouts ?? {};
  let defaultMs = configDefault ?? DEFAULT_TOOL_TIMEOUT_MS;
  const raw = env[TOOL_TIMEOUT_ENV];
  if (raw !== undefined && raw !== '') {
    const value = Number(raw);
    if (Number.isInteger(value) && value > 0) defaultMs = value;
    else problems.push(`${TOOL_TIMEOUT_ENV}=${JSON.stringify(raw)} is not a positive integer (ms); ignored`);
  }
  return { perTool, defaultMs, problems };
}

/**
 * The limit for one call, in this order: the call's own `timeout_ms` argument (plus a grace period),
 * then `tool_timeouts.<tool>`, then the default — but never less than what the tool itself declares
 * it may need (a save waiting for the idea lock), unless config names the tool explicitly.
 */
export function toolTimeoutMs(
  settings: TimeoutSettings,
  tool: { name: string; timeoutMs?: number | undefined },
  args: unknown,
): number {
  const own = (args as { timeout_ms?: unknown } | null)?.timeout_ms;
  if (typeof own === 'number' && Number.isFinite(own) && own > 0) {
    return Math.min(own + TOOL_TIMEOUT_GRACE_MS, MAX_TIMER_MS);
  }
  const configured = Object.hasOwn(settings.perTool, tool.name) ? settings.perTool[tool.name] : undefined;
  if (configured !== undefined) return Math.min(configured, MAX_TIMER_MS);
  return Math.min(Math.max(settings.defaultMs, tool.timeoutMs ?? 0), MAX_TIMER_MS);
}
