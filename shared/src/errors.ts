import { z } from 'zod';

/** Error codes shared by every process and every tool (DESIGN §4–5). */
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

/** Turns a zod failure into a VALIDATION_ERROR that names the field and why. */
export function validationError(error: z.ZodError, what = 'input'): XipeError {
  const issues = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
  const first = issues[0];
  const summary = first ? `${first.field}: ${first.message}` : 'invalid';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new XipeError('VALIDATION_ERROR', `Invalid ${what}: ${summary}${more}`, { issues });
}
