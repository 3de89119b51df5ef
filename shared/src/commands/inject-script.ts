import { z } from 'zod';
import { TabRef, TabTarget } from './target.js';

export const INJECT_SCRIPT = 'inject_script';

export const InjectWorld = z.enum(['main', 'isolated']);
export type InjectWorld = z.infer<typeof InjectWorld>;

/** What the host relays to the extension: the code itself, never seen by the agent. */
export const InjectScriptParams = z
  .object({
    code: z.string(),
    world: InjectWorld.default('main'),
    cleanup_before: z.boolean().default(false),
    target: TabTarget.default({}),
    timeout_ms: z.number().int().positive().max(600_000).default(30_000),
  })
  .strict();
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
