import { z } from 'zod';
import { describeZodIssues, makeIssue, summarizeIssues, type ValidationIssue } from './validation-issues.js';

/** Error codes shared by every process and every tool (docs/architecture.md, Error codes). */
export const ErrorCode = z.enum([
  'VALIDATION_ERROR',
  'IDEA_NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'WRITE_ERROR',
  'BACKEND_UNREACHABLE',
  'TIMEOUT',
  'FILE_NOT_FOUND',
  'TAB_NOT_FOUND',
  'INJECTION_BLOCKED',
  'SCRIPT_ERROR',
  'EXTENSION_NOT_CONNECTED',
  'PROTOCOL_ERROR',
  'UNAUTHORIZED',
  'INTERNAL_ERROR',
  /**
   * Bridge only, never returned by a tool: inject_script named its code by hash and the extension
   * does not have it (any more); the MCP server sends the code in full instead.
   */
  'SCRIPT_NOT_CACHED',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorPayload = z.object({
  code: ErrorCode,
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorPayload = z.infer<typeof ErrorPayload>;

/** The one error type thrown across the codebase; everything else is mapped to it at the edges. */
export class XipeError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'XipeError';
    this.code = code;
    this.details = details;
  }

  toPayload(): ErrorPayload {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static from(payload: ErrorPayload): XipeError {
    return new XipeError(payload.code, payload.message, payload.details);
  }
}

export function toErrorPayload(err: unknown): ErrorPayload {
  if (err instanceof XipeError) return err.toPayload();
  const parsed = ErrorPayload.safeParse(err);
  if (parsed.success) return parsed.data;
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL_ERROR', message };
}

/**
 * One grammar for every refusal (DESIGN §4, §5): `Invalid <what>: <field>: expected X, got Y[; …].
 * <next step>` — the field path, what would have been accepted, what came, then what to do. The
 * MCP server states <what> as `arguments for <tool>` for every tool (mcp/src/tools/call/tool-result.ts), so an
 * agent reads one prefix whichever process refused. `details.issues` holds each issue apart, and
 * `details.next_step` the next step when it is not the default one.
 */
export const DEFAULT_NEXT_STEP = 'Correct the field(s) named and try again.';

/**
 * Turns a zod failure into a VALIDATION_ERROR whose message and `details.issues` name, for every
 * problem, the field path, what was expected and what came. `input` is the value that was parsed
 * (the received values are read from it).
 */
export function validationError(error: z.ZodError, what: string, input: unknown, hint?: string): XipeError {
  return invalidInput(describeZodIssues(error.issues, input), what, hint === undefined ? {} : { hint });
}

/** The message of a refusal, in the grammar above. */
export function refusalMessage(what: string, issues: readonly ValidationIssue[], nextStep?: string): string {
  return `Invalid ${what}: ${summarizeIssues(issues)}. ${nextStep ?? DEFAULT_NEXT_STEP}`;
}

/** A VALIDATION_ERROR for issues found by hand (checks that are not zod schemas). */
export function invalidInput(
  issues: readonly ValidationIssue[],
  what: string,
  extra: { hint?: string; details?: Record<string, unknown> } = {},
): XipeError {
  return new XipeError('VALIDATION_ERROR', refusalMessage(what, issues, extra.hint), {
    ...extra.details,
    issues: [...issues],
    ...(extra.hint !== undefined ? { next_step: extra.hint } : {}),
  });
}

/** The common case of one hand-checked field: `invalidField('workspace', 'an absolute path', value, 'input')`. */
export function invalidField(
  field: string,
  expected: string,
  received: unknown,
  what = 'input',
  extra: { hint?: string; details?: Record<string, unknown> } = {},
): XipeError {
  return invalidInput([makeIssue(field, expected, received)], what, extra);
}
