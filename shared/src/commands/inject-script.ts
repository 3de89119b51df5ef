import { z } from 'zod';
import { TabRef, TabTarget } from './target.js';

export const INJECT_SCRIPT = 'inject_script';

export const InjectWorld = z.enum(['main', 'isolated']);
export type InjectWorld = z.infer<typeof InjectWorld>;

/** Scripts up to this size may be sent once and then named by their hash (`code_sha256`). */
export const SCRIPT_CACHE_MAX_CHARS = 1024 * 1024;

/**
 * What the host relays to the extension: the code itself, never seen by the agent. A sender that
 * already sent the same code to this browser may send only `code_sha256`; the extension then runs
 * the code it kept, or answers SCRIPT_NOT_CACHED (nothing was done) and the sender sends it again
 * in full. With both, the extension checks the hash and keeps the code for later calls.
 */
export const InjectScriptParams = z
  .object({
    code: z.string().optional(),
    /** SHA-256 of the code's UTF-8 bytes, lower-case hex. */
    code_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    world: InjectWorld.default('main'),
    cleanup_before: z.boolean().default(false),
    target: TabTarget.default({}),
    timeout_ms: z.number().int().positive().max(600_000).default(30_000),
  })
  .strict()
  .refine((p) => p.code !== undefined || p.code_sha256 !== undefined, {
    message: 'code, or the code_sha256 of code sent before',
    path: ['code'],
  });
export type InjectScriptParams = z.infer<typeof InjectScriptParams>;
export type InjectScriptParamsInput = z.input<typeof InjectScriptParams>;

export const InjectMethod = z.enum(['userScripts', 'scripting']);
export type InjectMethod = z.infer<typeof InjectMethod>;

export const InjectScriptResult = z.object({
  returnValue: z.unknown(),
  tab: TabRef,
  method: InjectMethod,
});
export type InjectScriptResult = z.infer<typeof InjectScriptResult>;
