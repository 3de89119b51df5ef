import path from 'node:path';
import {
  COMPARE_WITH_REFERENCE,
  CompareScores,
  CompareWithReferenceParams,
  CompareWithReferenceResult,
} from '#shared/commands/compare-with-reference.js';
import { type ErrorPayload, toErrorPayload, validationError, XipeError } from '#shared/errors.js';
import { scanRuntimeDir } from '#shared/node/bridge/discovery.js';
import { probeHost } from '#shared/node/bridge/probe.js';
import { COMPARE_COMMAND } from '#shared/node/cli-commands.js';
import { commandHelp, parseCommand, UsageError } from '#shared/node/command-line.js';
import { readToken, xipeHome } from '#shared/node/index.js';

/**
 * `x-ipe-uiux compare`: compare_with_reference for scripts and CI. Finds a host with the extension
 * connected (as `start` and `doctor` do), asks it the bridge command with this workspace, prints
 * the answer, and exits 0 when the chosen score reaches `--min`, 1 below, 2 on any error.
 */

type Options = Partial<Record<keyof typeof COMPARE_COMMAND.options, string>>;

export interface CompareIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  home: string;
}

const SCORES = Object.keys(CompareScores.shape);

function fail(io: CompareIo, error: ErrorPayload): number {
  const { code, ...rest } = error;
  io.stdout(`${JSON.stringify({ error: code, ...rest, tool_name: 'compare_with_reference' })}\n`);
  io.stderr(`x-ipe-uiux compare: ${error.message}\n`);
  return 2;
}

function number(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${field} must be a number (got '${value}')`);
  return n;
}

function params(o: Options, io: CompareIo) {
  const parsed = CompareWithReferenceParams.safeParse({
    workspace: path.resolve(io.cwd, o.workspace ?? '.'),
    idea_folder: o.idea,
    ...(o.area !== undefined ? { area_id: o.area } : {}),
    ...(o.screenshot !== undefined ? { screenshot: o.screenshot } : {}),
    ...(o.file !== undefined ? { file_path: path.resolve(io.cwd, o.file) } : {}),
    ...(o.url !== undefined ? { url: o.url } : {}),
    ...(o.selector !== undefined ? { selector: o.selector } : {}),
    ...(o['viewport-width'] !== undefined
      ? { viewport_width: number(o['viewport-width'], 'viewport-width') }
      : {}),
    timeout_ms: Math.round((number(o.timeout, 'timeout') ?? 30) * 1000),
  });
  if (!parsed.success) throw validationError(parsed.error, 'compare arguments', o);
  return parsed.data;
}

async function ask(io: CompareIo, request: CompareWithReferenceParams): Promise<CompareWithReferenceResult> {
  const token = readToken(io.home);
  if (token === null)
    throw new XipeError(
      'BACKEND_UNREACHABLE',
      'No bridge token yet: run `x-ipe-uiux start` (or install) first.',
    );
  for (const descriptor of (await scanRuntimeDir(io.home)).live) {
    const status = await probeHost(descriptor, token, { timeoutMs: 2_000 });
    if (!status.ok || !status.host.extension_connected) continue;
    const outcome = await probeHost(descriptor, token, {
      timeoutMs: request.timeout_ms + 5_000,
      request: { command: COMPARE_WITH_REFERENCE, params: request, timeout_ms: request.timeout_ms },
    });
    if (!outcome.ok) throw new XipeError(outcome.error.code, outcome.error.message, outcome.error.details);
    const result = CompareWithReferenceResult.safeParse(outcome.result);
    if (!result.success)
      throw new XipeError(
        'PROTOCOL_ERROR',
        'The host sent an invalid comparison; use one x-ipe-uiux version.',
      );
    return result.data;
  }
  throw new XipeError(
    'BACKEND_UNREACHABLE',
    'No browser with the extension is connected: run `x-ipe-uiux start` (or open Chrome with the extension), then compare again. `x-ipe-uiux doctor` says what is missing.',
  );
}

export async function compareCommand(o: Options, io: CompareIo): Promise<number> {
  const score = o.score ?? 'pixel';
  try {
    if (!SCORES.includes(score))
      throw new UsageError(`--score must be one of ${SCORES.join(', ')} (got '${score}')`);
    const min = number(o.min, 'min') ?? 0.95;
    if (min < 0 || min > 1) throw new UsageError(`--min must be between 0 and 1 (got ${min})`);
    const result = await ask(io, params(o, io));
    io.stdout(`${JSON.stringify(result)}\n`);
    const value = result.scores[score as keyof CompareScores];
    if (value === null)
      throw new UsageError(`--score ${score} has no value for a screenshot reference; use pixel or ssim`);
    return value >= min ? 0 : 1;
  } catch (err) {
    if (err instanceof UsageError)
      return fail(io, { code: 'VALIDATION_ERROR', message: err.message, details: {} });
    return fail(io, toErrorPayload(err));
  }
}

export async function runCompare(argv: string[], io?: CompareIo): Promise<number> {
  const out: CompareIo = io ?? {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    home: xipeHome(),
  };
  let parsed: ReturnType<typeof parseCommand<typeof COMPARE_COMMAND.options>>;
  try {
    parsed = parseCommand(COMPARE_COMMAND, argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    out.stderr(`x-ipe-uiux compare: ${err.message}\nRun \`x-ipe-uiux compare --help\` for usage.\n`);
    return 2;
  }
  if (parsed.help) {
    out.stdout(commandHelp(COMPARE_COMMAND));
    return 0;
  }
  return compareCommand(parsed.values, out);
}
