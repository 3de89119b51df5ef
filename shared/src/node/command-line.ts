import { parseArgs } from 'node:util';

/**
 * Every `x-ipe-uiux <command>` parses its arguments here, with Node's own `util.parseArgs`
 * (strict: an unknown option or a missing value is an error), and prints its `--help` from the
 * same description, so the help can never drift from what the parser accepts.
 */

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** Shown in the help after the option name (`--workspace DIR`). */
  readonly value?: string;
  readonly help: string;
}

export interface CommandSpec<O extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  /** `start`, `mcp`, … */
  readonly name: string;
  /** One line, for `x-ipe-uiux --help` and the top of the command's own help. */
  readonly summary: string;
  readonly options: O;
  /** Positional arguments in the usage line (`[URL]`); none accepted when absent. */
  readonly positionals?: { readonly usage: string; readonly max: number };
  /** Paragraphs after the option list (examples, environment, what happens). */
  readonly details?: string;
}

export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? true : string;
};

export type ParsedCommand<O extends Record<string, OptionSpec>> =
  | { help: true }
  | { help: false; values: OptionValues<O>; positionals: string[] };

/** A mistake on the command line: the caller prints it with a pointer to `--help` and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Parses argv for one command. `--help`/`-h` anywhere wins over everything else. */
export function parseCommand<O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  argv: readonly string[],
): ParsedCommand<O> {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return { help: true };
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const [name, option] of Object.entries(spec.options)) options[name] = { type: option.type };
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(readableParseError(err));
  }
  const values: Record<string, string | true> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === '') throw new UsageError(`--${name} needs a value`);
    if (value !== undefined && value !== false) values[name] = value;
  }
  const max = spec.positionals?.max ?? 0;
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals[max];
    throw new UsageError(
      max === 0 ? `unexpected argument '${extra}'` : `too many arguments (at most ${max}): '${extra}'`,
    );
  }
  // Safe by construction: only names from spec.options, each with the type its spec declares.
  return { help: false, values: values as OptionValues<O>, positionals: parsed.positionals };
}

/** Node's messages, minus the advice about `--` that only confuses here. */
function readableParseError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown !== null) return `unknown option ${unknown[1]}`;
  const missing = /^Option '(--[\w-]+)(?: <value>)?' argument missing/.exec(message);
  if (missing !== null) return `${missing[1]} needs a value`;
  const noValue = /^Option '(--[\w-]+)' does not take an argument/.exec(message);
  if (noValue !== null) return `${noValue[1]} takes no value`;
  return message;
}

/** The command's `--help` text. */
export function commandHelp(spec: CommandSpec, bin = 'x-ipe-uiux'): string {
  const optionNames = Object.entries(spec.options).map(
    ([name, o]) => `--${name}${o.value !== undefined ? ` ${o.value}` : ''}`,
  );
  const usage = [`${bin} ${spec.name}`, ...optionNames.map((n) => `[${n}]`)];
  if (spec.positionals !== undefined) usage.push(spec.positionals.usage);
  const rows: Array<[string, string]> = Object.entries(spec.options).map(([, o], i) => [
    optionNames[i] ?? '',
    o.help,
  ]);
  rows.push(['--help, -h', 'Show this help']);
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  const lines = [
    `Usage: ${usage.join(' ')}`,
    '',
    spec.summary,
    '',
    'Options:',
    ...rows.map(
      ([name, help]) => `  ${name.padEnd(width)}${help.replaceAll('\n', `\n${' '.repeat(width + 2)}`)}`,
    ),
  ];
  if (spec.details !== undefined) lines.push('', spec.details.trim());
  return `${lines.join('\n')}\n`;
}

/**
 * Parses for a command's `run…` function: the arguments, or the exit code after printing the help
 * (stdout, 0) or the mistake with a pointer to the help (stderr, 2).
 */
export function argsOrExit<O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  argv: readonly string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process,
): { values: OptionValues<O>; positionals: string[] } | number {
  try {
    const parsed = parseCommand(spec, argv);
    if (!parsed.help) return parsed;
    io.stdout.write(commandHelp(spec));
    return 0;
  } catch (err) {
    return usageFailure(spec, err, io.stderr);
  }
}

/** Prints a UsageError with a pointer to the command's help; returns the exit code 2. Rethrows anything else. */
export function usageFailure(
  spec: CommandSpec,
  err: unknown,
  stderr: NodeJS.WritableStream = process.stderr,
): number {
  if (!(err instanceof UsageError)) throw err;
  stderr.write(
    `x-ipe-uiux ${spec.name}: ${err.message}\nRun \`x-ipe-uiux ${spec.name} --help\` for usage.\n`,
  );
  return 2;
}
