import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  INJECT_SCRIPT,
  InjectScriptParams,
  type InjectScriptParamsInput,
  type InjectScriptResult,
  SCRIPT_CACHE_MAX_CHARS,
} from '#shared/commands/index.js';
import { invalidField, XipeError } from '#shared/errors.js';
import { resolveRoute, routeOptions } from '../bridge-client/routing.js';
import { type ScriptFile, ScriptFiles } from './call/script-files.js';
import { refineOneTarget, tabTargetShape } from './call/tab-target-args.js';
import { defineTool, ToolReply } from './define-tool.js';

/**
 * The most a script's value may take as JSON in an answer: an agent reads it into its context.
 * Larger values are refused with what to do instead.
 */
export const MAX_VALUE_BYTES = 256 * 1024;

/** Values up to this go as structuredContent too; larger ones as text only (never twice). */
export const STRUCTURED_MAX_VALUE_BYTES = 8 * 1024;

/** Scripts above this are refused before reading (the bridge frame cap leaves room for JSON escaping). */
export const MAX_SCRIPT_BYTES = 32 * 1024 * 1024;

const InjectScriptArgs = z
  .strictObject({
    file_path: z
      .string()
      .min(1)
      .refine((p) => path.isAbsolute(p), 'an absolute path (the server does not guess a directory)')
      .refine((p) => p.toLowerCase().endsWith('.js'), 'a path ending in .js')
      .describe(
        'Absolute path of the .js file to run. The server reads it; its contents never appear in the result.',
      ),
    ...tabTargetShape,
    cleanup_before: InjectScriptParams.shape.cleanup_before.describe(
      'Remove an existing X-IPE toolbar and its injection guards before running.',
    ),
    world: InjectScriptParams.shape.world.describe(
      "'main' (the page's own JS world, default) or 'isolated' (the safe choice: the page cannot see or change what runs there). A main-world result is produced inside the page and can be influenced by it.",
    ),
    timeout_ms: InjectScriptParams.shape.timeout_ms.describe('How long the script may run (default 30000).'),
  })
  .superRefine(refineOneTarget);

export const injectScriptTool = defineTool({
  name: 'inject_script',
  description:
    "Run a .js file in a tab of the user's browser and return its completion value (promises are awaited, like " +
    'Runtime.evaluate with awaitPromise; top-level `await` works as in the DevTools console). Pass the absolute `file_path`; the file is read by the server and never ' +
    'echoed. Target with one of `tab_id`, `url_contains`, `page_index` (see list_tabs); none = the active tab of ' +
    'the last focused window. Works on pages whose CSP forbids inline script when user scripts are allowed. ' +
    "In `world: 'main'` the code runs among the page's own scripts, so the result is produced inside the page and " +
    "can be influenced by it; `world: 'isolated'` (the page's DOM, not its JS) is the safe choice when the page is not yours.",
  inputSchema: InjectScriptArgs,
  // Any script may change or submit anything on the page.
  annotations: {
    title: 'Inject a script into a tab',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    const started = performance.now();
    // A script this server already sent to that browser goes by its hash only; the extension
    // answers SCRIPT_NOT_CACHED (having done nothing) when it no longer holds it.
    const sent = ctx.sentScripts;
    const { code, sha256 } = await readScript(
      args.file_path,
      sent !== undefined ? SCRIPT_CACHE_MAX_CHARS : -1,
    );
    const route = await resolveRoute(ctx.bridge, args, ctx.signal);
    const send = (script: Pick<InjectScriptParamsInput, 'code' | 'code_sha256'>) =>
      ctx.bridge.request(
        INJECT_SCRIPT,
        {
          ...script,
          world: args.world,
          cleanup_before: args.cleanup_before,
          target: route.target,
          timeout_ms: args.timeout_ms,
        },
        { ...routeOptions(route), timeoutMs: args.timeout_ms, signal: ctx.signal },
      );
    const browser = route.browser ?? route.reaches ?? '';
    let result: InjectScriptResult | undefined;
    if (sent !== undefined && sha256 !== undefined && sent.has(browser, sha256)) {
      try {
        result = await send({ code_sha256: sha256 });
      } catch (err) {
        if (!(err instanceof XipeError && err.code === 'SCRIPT_NOT_CACHED')) throw err;
        sent.forget(browser, sha256);
      }
    }
    if (result === undefined) {
      result = await send(sha256 !== undefined ? { code, code_sha256: sha256 } : { code });
      if (sha256 !== undefined) sent?.add(browser, sha256);
    }
    const returnValue = result.returnValue ?? null;
    const valueBytes = Buffer.byteLength(JSON.stringify(returnValue), 'utf8');
    if (valueBytes > MAX_VALUE_BYTES) {
      throw new XipeError(
        'PAYLOAD_TOO_LARGE',
        `The script ran, but its value is ${valueBytes} bytes as JSON; an inject_script answer carries at most ${MAX_VALUE_BYTES}. ` +
          'Write a file instead (e.g. have the script return the data in slices of under 200000 characters and save them on your side), or return only what you need (a count, a summary).',
        { value_bytes: valueBytes, max_value_bytes: MAX_VALUE_BYTES, tab_id: result.tab.id },
      );
    }
    const value = {
      success: true,
      returnValue,
      tab: { id: result.tab.id, url: result.tab.url, title: result.tab.title },
      method: result.method,
      bytes: Buffer.byteLength(code, 'utf8'),
      elapsed_ms: Math.round(performance.now() - started),
    };
    return valueBytes > STRUCTURED_MAX_VALUE_BYTES ? new ToolReply(value, [], false) : value;
  },
});
/**
 * Files up to this size are read synchronously: one blocking read of a few hundred KiB takes less
 * than the several thread-pool round trips of an async stat+open+read+close (measured ~0.5 ms of a
 * ~12 ms call for 24 KB); bigger ones do not hold the event loop.
 */
const SYNC_READ_MAX_BYTES = 1024 * 1024;

/** Recently read script files (per process; a file is re-read as soon as its stat changes). */
const scriptFiles = new ScriptFiles();

/** The file's text and, when it is at most `hashUpToChars` long, its SHA-256. */
async function readScript(filePath: string, hashUpToChars: number): Promise<ScriptFile> {
  try {
    const stat = fs.statSync(filePath, { bigint: true });
    if (!stat.isFile()) {
      throw invalidField('file_path', 'the path of a regular .js file', filePath, 'input', {
        hint: 'Pass the path of a .js file.',
        details: { field: 'file_path', file_path: filePath },
      });
    }
    const size = Number(stat.size);
    if (size > MAX_SCRIPT_BYTES) {
      throw new XipeError(
        'PAYLOAD_TOO_LARGE',
        `${filePath} is ${size} bytes; scripts are limited to ${MAX_SCRIPT_BYTES} bytes. Split or minify it.`,
        { file_path: filePath, bytes: size, max_bytes: MAX_SCRIPT_BYTES },
      );
    }
    if (size <= SYNC_READ_MAX_BYTES) return scriptFiles.readSync(filePath, stat, hashUpToChars);
    const code = await fs.promises.readFile(filePath, 'utf8');
    const sha256 =
      code.length <= hashUpToChars ? createHash('sha256').update(code, 'utf8').digest('hex') : undefined;
    return { code, sha256 };
  } catch (err) {
    if (err instanceof XipeError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`;
    throw new XipeError(
      'FILE_NOT_FOUND',
      `Script file ${why}: ${filePath}. Pass the absolute path of an existing, readable .js file.`,
      { file_path: filePath, reason: code },
    );
  }
}
