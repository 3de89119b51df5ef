import fs from 'node:fs';
import path from 'node:path';
import { type ErrorPayload, invalidInput, toErrorPayload, XipeError } from '#shared/errors.js';
import { SAVE_COMMAND } from '#shared/node/cli-commands.js';
import { commandHelp, parseCommand, UsageError } from '#shared/node/command-line.js';
import { payloadLimit } from '#shared/node/config.js';
import { payloadTooLarge, saveReference } from '#shared/node/idea-store/index.js';
import { xipeHome } from '#shared/node/paths.js';
import type { SaveResult } from '#shared/reference-data.js';
import { makeIssue } from '#shared/validation-issues.js';

/**
 * `x-ipe-uiux save`: save_uiux_reference for scripts and agents without MCP. Reads reference data
 * from --data-file, --data or stdin and writes it through the idea store directly (the same code,
 * rules and cross-process lock the host uses, so it is safe beside running browsers). Prints the
 * tool's result object; exit 0 saved, 1 refused (validation, idea, size, write), 2 bad usage (no
 * input, unreadable file, invalid JSON, bad flags).
 */

/** The options, named as on the command line (SAVE_COMMAND in shared/src/node/cli-commands.ts). */
export interface SaveCommandOptions {
  'data-file'?: string;
  data?: string;
  workspace?: string;
  format?: string;
}

export interface SaveIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** All of stdin, or null when stdin is a terminal (nothing piped). */
  readStdin: (maxBytes: number) => Promise<string | null>;
  cwd: string;
  home: string;
}

/** What the tool returns on failure, so scripts handle both the same way. */
const TOOL_NAME = 'save_uiux_reference';

/** Errors of the command line itself (exit 2), as opposed to refusals of the data (exit 1). */
const usageErrors = new WeakSet<XipeError>();
function badUsage(err: XipeError): XipeError {
  usageErrors.add(err);
  return err;
}

export async function runSave(argv: string[], io: SaveIo = processIo()): Promise<number> {
  let parsed: ReturnType<typeof parseCommand<typeof SAVE_COMMAND.options>>;
  try {
    parsed = parseCommand(SAVE_COMMAND, argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`x-ipe-uiux save: ${err.message}\nRun \`x-ipe-uiux save --help\` for usage.\n`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(commandHelp(SAVE_COMMAND));
    return 0;
  }
  return saveCommand(parsed.values, io);
}

export async function saveCommand(options: SaveCommandOptions, io: SaveIo): Promise<number> {
  const format = options.format ?? 'json';
  if (format !== 'json' && format !== 'text') {
    io.stderr(`x-ipe-uiux save: --format must be json or text (got '${format}')\n`);
    return 2;
  }
  try {
    const limit = payloadLimit(io.home);
    const { text, source } = await readInput(options, io, limit);
    const data = parseJson(text, source);
    const result = await saveReference({
      workspace: path.resolve(io.cwd, options.workspace ?? '.'),
      data,
      maxPayloadBytes: limit,
      payloadBytes: Buffer.byteLength(text),
      logger: {
        warn: (msg, fields) => io.stderr(`x-ipe-uiux save: ${msg} ${JSON.stringify(fields ?? {})}\n`),
      },
    });
    io.stdout(format === 'json' ? `${JSON.stringify(result)}\n` : successText(result));
    return 0;
  } catch (err) {
    const payload = toErrorPayload(err);
    const failure = {
      error: payload.code,
      message: payload.message,
      details: payload.details ?? {},
      tool_name: TOOL_NAME,
    };
    if (format === 'json') io.stdout(`${JSON.stringify(failure)}\n`);
    else io.stderr(failureText(payload));
    return err instanceof XipeError && usageErrors.has(err) ? 2 : 1;
  }
}

async function readInput(
  options: SaveCommandOptions,
  io: SaveIo,
  limit: number,
): Promise<{ text: string; source: string }> {
  const file = options['data-file'];
  if (file !== undefined && options.data !== undefined) {
    throw usage('input', 'one input: --data-file FILE, --data JSON or stdin', 'both --data-file and --data');
  }
  if (options.data !== undefined) return { text: options.data, source: '--data' };
  if (file !== undefined) {
    const resolved = path.resolve(io.cwd, file);
    let size: number;
    try {
      size = fs.statSync(resolved).size;
    } catch (err) {
      throw unreadable(resolved, err);
    }
    if (size > limit) throw payloadTooLarge(size, limit);
    try {
      return { text: fs.readFileSync(resolved, 'utf8'), source: resolved };
    } catch (err) {
      throw unreadable(resolved, err);
    }
  }
  const piped = await io.readStdin(limit + 1);
  if (piped === null || piped.trim() === '') {
    const got = piped === null ? 'nothing (stdin is a terminal)' : 'an empty stdin';
    throw usage('input', 'reference data JSON from --data-file FILE, --data JSON or stdin', got);
  }
  if (Buffer.byteLength(piped) > limit) throw payloadTooLarge(Buffer.byteLength(piped), limit);
  return { text: piped, source: 'stdin' };
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const field = source === '--data' ? 'data' : source === 'stdin' ? 'stdin' : 'data-file';
    const issue = makeIssue(field, 'reference data as JSON', text, `does not parse (${reason})`);
    throw badUsage(invalidInput([issue], 'input', { details: { source } }));
  }
}

/** `received` is already a description (not a value), so the issue is built here. */
function usage(field: string, expected: string, received: string): XipeError {
  const issue = { field, expected, received, message: `${field}: expected ${expected}, got ${received}` };
  return badUsage(invalidInput([issue], 'input', { hint: 'See x-ipe-uiux save --help.' }));
}

function unreadable(file: string, err: unknown): XipeError {
  const code = (err as NodeJS.ErrnoException).code ?? 'ERROR';
  return badUsage(
    new XipeError('FILE_NOT_FOUND', `Cannot read --data-file ${file}: ${(err as Error).message}`, {
      path: file,
      os_code: code,
    }),
  );
}

function successText(result: SaveResult): string {
  const lines = [
    `Saved ${result.session_file} (session ${result.session_number}) into ${result.idea_folder}`,
    `  session:     ${result.session_path}`,
    ...result.screenshots.map((file) => `  screenshot:  ${file}`),
    `  merged view: ${result.reference_data_path}`,
    `  workspace:   ${result.workspace}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** The code and message; with several issues, each on its own line as well. */
function failureText(payload: ErrorPayload): string {
  const issues = Array.isArray(payload.details?.issues) ? (payload.details.issues as unknown[]) : [];
  const listed =
    issues.length > 1 ? issues.map((i) => `  - ${String((i as { message?: unknown }).message)}`) : [];
  return `${[`${payload.code}: ${payload.message}`, ...listed].join('\n')}\n`;
}

function processIo(): SaveIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: (maxBytes) => readAll(process.stdin, maxBytes),
    cwd: process.cwd(),
    home: xipeHome(),
  };
}

/** Reads stdin up to `maxBytes` (a larger input is refused by size, not buffered whole). */
async function readAll(stream: NodeJS.ReadStream, maxBytes: number): Promise<string | null> {
  if (stream.isTTY === true) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    chunks.push(buffer);
    size += buffer.length;
    if (size >= maxBytes) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}
