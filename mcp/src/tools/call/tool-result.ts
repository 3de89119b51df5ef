import { type ErrorCode, ErrorPayload, refusalMessage, XipeError } from '#shared/errors.js';
import type { ValidationIssue } from '#shared/validation-issues.js';
import type { CallToolResult } from '../../sdk.js';
import { type ToolOutput, ToolReply } from '../define-tool.js';

/** The failure object every tool returns (a contract: docs/architecture.md, Commands and tools). */
export interface ToolErrorObject {
  error: ErrorCode;
  message: string;
  details: Record<string, unknown>;
  tool_name: string;
}

/**
 * A handler's success object → one JSON text item plus the same object as structuredContent
 * (unless the reply says it is too large to send twice); its images (if any) follow as `image`
 * content blocks. Every success carries `status: "success"` (docs/design.md §5), first, whatever
 * else the tool returns.
 */
export function successResult(output: ToolOutput): CallToolResult {
  const value = { status: 'success', ...(output instanceof ToolReply ? output.value : output) };
  const images = output instanceof ToolReply ? output.images : [];
  return {
    content: [
      { type: 'text', text: JSON.stringify(value) },
      ...images.map((image) => ({ type: 'image' as const, data: image.data, mimeType: image.mimeType })),
    ],
    ...(output instanceof ToolReply && !output.structured ? {} : { structuredContent: value }),
  };
}

/**
 * Any thrown value → the contract's error object. XipeError (or an error payload relayed as a
 * plain object) keeps its code, message and details; anything else is a bug on our side and
 * becomes INTERNAL_ERROR with its message only (no stack, no arguments).
 */
export function toToolError(err: unknown, toolName: string): ToolErrorObject {
  const relayed = err instanceof XipeError ? err.toPayload() : ErrorPayload.safeParse(err).data;
  if (relayed !== undefined) {
    return {
      error: relayed.code,
      message: restated(relayed, toolName),
      details: relayed.details ?? {},
      tool_name: toolName,
    };
  }
  const reason = err instanceof Error ? err.message : String(err);
  return {
    error: 'INTERNAL_ERROR',
    message: `Internal error in ${toolName}: ${reason}. This is a bug in x-ipe-uiux: retry once; if it persists, report it with the MCP server log (bridge_status lists the log files).`,
    details: {},
    tool_name: toolName,
  };
}

/**
 * A refusal with its issues is restated with the one prefix an agent reads for every tool
 * (`Invalid arguments for <tool>:`), whichever process refused and however it named the input.
 */
function restated(payload: ErrorPayload, toolName: string): string {
  const issues = payload.details?.issues;
  if (payload.code !== 'VALIDATION_ERROR' || !Array.isArray(issues) || !issues.every(isIssue))
    return payload.message;
  const next = payload.details?.next_step;
  return refusalMessage(`arguments for ${toolName}`, issues, typeof next === 'string' ? next : undefined);
}

const isIssue = (value: unknown): value is ValidationIssue =>
  typeof value === 'object' &&
  value !== null &&
  ['field', 'expected', 'received', 'message'].every(
    (key) => typeof (value as Record<string, unknown>)[key] === 'string',
  );

export function errorResult(err: unknown, toolName: string): CallToolResult {
  const obj = toToolError(err, toolName);
  return {
    content: [{ type: 'text', text: JSON.stringify(obj) }],
    structuredContent: { ...obj },
    isError: true,
  };
}
