import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../constants.js';
import { formatZodError } from '../validation-issues.js';
import { writeFileAtomicSync } from './atomic-write.js';
import { configPath } from './paths.js';

/** `<home>/config.json`: per-user settings shared by install, host, mcp, start and doctor. */
export const Config = z.object({
  /** Absolute workspace roots registered with `install --workspace`/`start`; the toolbar saves into these. */
  workspaces: z.array(z.string().min(1)).default([]),
  /** Request JSON over this many bytes is refused with PAYLOAD_TOO_LARGE. */
  max_payload_bytes: z.number().int().positive().default(DEFAULT_MAX_PAYLOAD_BYTES),
  /**
   * MCP tool time limits in ms, by tool name (`"default"` for every tool without its own entry).
   * Optional so existing config files stay as they are; see mcp/src/tools/call/timeouts.ts for precedence.
   */
  tool_timeouts: z.record(z.string().min(1), z.number().int().positive()).optional(),
});
export type Config = z.infer<typeof Config>;

/** Reads the config; a missing file is the default config, an unparsable one is an error. */
export function loadConfig(home: string): Config {
  let text: string;
  try {
    text = fs.readFileSync(configPath(home), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Config.parse({});
    throw err;
  }
  const json: unknown = JSON.parse(text);
  const parsed = Config.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${configPath(home)} is invalid: ${formatZodError(parsed.error, json)}`);
  }
  return parsed.data;
}

export function saveConfig(home: string, config: Config): void {
  writeFileAtomicSync(configPath(home), `${JSON.stringify(config, null, 2)}\n`, {
    mode: 0o600,
    dirMode: 0o700,
  });
}

/** Adds a workspace (absolute, de-duplicated) and returns the updated config. */
export function registerWorkspace(home: string, workspace: string): Config {
  const config = loadConfig(home);
  const abs = path.resolve(workspace);
  if (!config.workspaces.includes(abs)) config.workspaces.push(abs);
  saveConfig(home, config);
  return config;
}

/** Effective payload cap: env override (tests), else config. */
export function maxPayloadBytes(config: Config, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.XIPE_UIUX_MAX_PAYLOAD_BYTES;
  const fromEnv = raw !== undefined ? Number.parseInt(raw, 10) : Number.NaN;
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : config.max_payload_bytes;
}

/**
 * The save size cap for a process that is not the host (MCP server, `x-ipe-uiux save`): the one the
 * host enforces, or the default when the config cannot be read (the host then reports it).
 */
export function payloadLimit(home: string, env: NodeJS.ProcessEnv = process.env): number {
  try {
    return maxPayloadBytes(loadConfig(home), env);
  } catch {
    return DEFAULT_MAX_PAYLOAD_BYTES;
  }
}
