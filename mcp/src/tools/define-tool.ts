import { z } from 'zod';
import type { Progress } from '#shared/envelopes.js';
import type { Logger } from '#shared/node/logger.js';
import type { BridgeClient } from '../bridge-client/bridge.js';
import type { SentScripts } from './call/sent-scripts.js';

/** The narrow context a handler gets; nothing else (no module globals, no SDK objects). */
export interface ToolContext {
  bridge: BridgeClient;
  /** Absolute workspace root the server was started for (`--workspace`, default cwd). */
  workspace: string;
  logger: Logger;
  /** Aborted when the client cancels the call or the server shuts down. */
  signal: AbortSignal;
  toolName: string;
  /** Scripts inject_script sent in full, per browser (one per server); without it, always in full. */
  sentScripts?: SentScripts;
  /**
   * Where the call stands while the browser makes it wait its turn (a capture queued behind
   * others): the time limit pauses, and the client hears it as MCP progress when it asked for it.
   */
  progress?: (progress: Progress) => void;
}

/** An image a tool returns as its own MCP `image` content block (base64 once, never inside the JSON text). */
export interface ToolImage {
  data: string;
  mimeType: string;
}

/** A success object plus images; a handler returns it (via `withImages`) instead of the bare object. */
export class ToolReply {
  constructor(
    readonly value: Record<string, unknown>,
    readonly images: readonly ToolImage[],
    /** False: the value goes as text only, not a second time as structuredContent (a large one). */
    readonly structured = true,
  ) {}
}

export const withImages = (value: Record<string, unknown>, images: readonly ToolImage[]): ToolReply =>
  new ToolReply(value, images);

/** What a handler resolves with: the success object, or one with images. */
export type ToolOutput = Record<string, unknown> | ToolReply;

/** MCP tool annotations (hints for clients; see the MCP spec). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A tool is a data object: `server.ts` registers it, tests call `handler` directly. The handler
 * returns the success object (the server serialises it); it throws XipeError for failures, which
 * `tool-result.ts` maps to the `{error, message, details, tool_name}` shape.
 */
export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  /** Validated by the server before the handler runs (invalid → VALIDATION_ERROR naming the field). */
  readonly inputSchema: S;
  readonly annotations?: ToolAnnotations;
  /**
   * How long a call may need when it has no `timeout_ms` argument of its own (e.g. a save waiting
   * for the idea lock); the server's default limit (30 s, configurable) never cuts it shorter.
   */
  readonly timeoutMs?: number;
  // Method syntax on purpose: lets tools with different schemas share one registry array.
  handler(args: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
}

export interface ToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  /** A zod object (use `z.strictObject` to refuse unknown arguments) or a raw shape. */
  inputSchema: S;
  annotations?: ToolAnnotations;
  timeoutMs?: number;
  handler(args: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
}

export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): ToolDefinition<S>;
export function defineTool<Shape extends z.ZodRawShape>(
  spec: Omit<ToolSpec<z.ZodObject<Shape>>, 'inputSchema'> & { inputSchema: Shape },
): ToolDefinition<z.ZodObject<Shape>>;
export function defineTool(
  spec: Omit<ToolSpec<z.ZodObject>, 'inputSchema'> & { inputSchema: z.ZodObject | z.ZodRawShape },
): ToolDefinition {
  if (!/^[a-z][a-z0-9_]*$/.test(spec.name)) throw new Error(`tool name '${spec.name}' must be snake_case`);
  const inputSchema = spec.inputSchema instanceof z.ZodObject ? spec.inputSchema : z.object(spec.inputSchema);
  return { ...spec, inputSchema };
}

/** Any registered tool, whatever its schema. */
export type AnyTool = ToolDefinition<z.ZodObject>;
