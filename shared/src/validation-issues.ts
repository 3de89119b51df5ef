import type { z } from 'zod';

/**
 * The one formatter of validation problems: every issue becomes "<field path>: expected <what>, got
 * <what came>", so an agent (or a designer reading the toolbar) can fix the input without reading
 * our schemas. Used wherever a zod failure or a hand-made check is reported (errors.ts builds the
 * VALIDATION_ERROR from it), so no bare "Invalid input" ever reaches a caller.
 *
 * Convention for schema messages: a message set on a schema (`.regex(re, msg)`, `.refine(fn, msg)`,
 * `{ error: msg }`) is the *expectation*, phrased to follow "expected", e.g. 'an id like "color-001"'.
 * A custom issue may describe what came itself in `params.received` (e.g. a rule over several fields).
 * zod's own defaults (which start with "Invalid", "Too big"/"Too small" or "Unrecognized") are
 * replaced by an expectation derived from the issue's structured fields.
 */

export interface ValidationIssue {
  /** Dotted path from the root of what was validated (`elements.0.bounding_box.width`), or `(root)`. */
  field: string;
  /** What would have been accepted, e.g. `a number ≥ 0`. */
  expected: string;
  /** A short description of what came, e.g. `"12px"`, `null`, `nothing`. */
  received: string;
  /** `<field>: expected <expected>, got <received>`. */
  message: string;
}

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

const ZOD_DEFAULT_MESSAGE = /^(Invalid\b|Too (big|small):|Unrecognized key)/;
const MAX_QUOTED = 60;

/** Every issue of a zod failure, formatted against the value that was parsed. */
export function describeZodIssues(issues: readonly Issue[], input: unknown): ValidationIssue[] {
  return issues.flatMap((issue) => describe(issue, [], input));
}

/**
 * One hand-made issue in the same shape (for checks that are not zod schemas). `why`, when given,
 * says what is wrong with the value beyond its description ("which is not a PNG image").
 */
export function makeIssue(field: string, expected: string, received: unknown, why?: string): ValidationIssue {
  const got = why === undefined ? describeValue(received) : `${describeValue(received)}, which ${why}`;
  return { field, expected, received: got, message: `${field}: expected ${expected}, got ${got}` };
}

/** "a: …; b: … (and 3 more)" — the issues as one line, at most `max` spelled out. */
export function summarizeIssues(issues: readonly ValidationIssue[], max = 5): string {
  if (issues.length === 0) return 'invalid';
  const shown = issues.slice(0, max).map((i) => i.message);
  const more = issues.length > max ? ` (and ${issues.length - max} more, see details.issues)` : '';
  return `${shown.join('; ')}${more}`;
}

function describe(issue: Issue, prefix: Path, root: unknown): ValidationIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union') {
    const branch = unionBranch(issue.errors);
    if (branch !== null) return branch.flatMap((inner) => describe(inner, path, root));
  }
  const field = path.length > 0 ? path.map(String).join('.') : '(root)';
  const value = valueAt(root, path);
  const expected = expectation(issue, value);
  const received =
    issue.code === 'unrecognized_keys'
      ? `${issue.keys.length > 1 ? 'unknown keys' : 'unknown key'} ${issue.keys.map(quote).join(', ')}`
      : issue.code === 'custom' && typeof issue.params?.received === 'string'
        ? issue.params.received
        : describeValue(value);
  return [{ field, expected, received, message: `${field}: expected ${expected}, got ${received}` }];
}

/**
 * A union whose options all failed: when some option got past the type check, its issues explain
 * the problem best (the value was meant to be that option). Null: report the union as one issue.
 */
function unionBranch(branches: readonly (readonly Issue[])[]): readonly Issue[] | null {
  const typeOnly = (b: readonly Issue[]) =>
    b.length === 1 && b[0]?.code === 'invalid_type' && b[0].path.length === 0;
  const deeper = branches.filter((b) => b.length > 0 && !typeOnly(b));
  if (deeper.length === 0) return null;
  return deeper.reduce((best, b) => (b.length < best.length ? b : best));
}

function expectation(issue: Issue, value: unknown): string {
  if (!ZOD_DEFAULT_MESSAGE.test(issue.message) && issue.message !== '') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return typeName(issue.expected);
    case 'invalid_union':
      return unionTypes(issue.errors) ?? 'one of the accepted forms';
    case 'invalid_value':
      return issue.values.length === 1
        ? quote(issue.values[0])
        : `one of ${issue.values.map((v) => quote(v)).join(', ')}`;
    case 'too_small':
      return bound(issue.origin, 'min', issue.minimum, issue.inclusive !== false, issue.exact === true);
    case 'too_big':
      return bound(issue.origin, 'max', issue.maximum, issue.inclusive !== false, issue.exact === true);
    case 'invalid_format':
      return formatName(issue);
    case 'not_multiple_of':
      return `a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'only the documented keys';
    case 'invalid_key':
      return `valid keys in this ${issue.origin}`;
    case 'invalid_element':
      return `valid values in this ${issue.origin}`;
    default:
      return typeof value === 'string' ? 'a different string' : 'a valid value';
  }
}

function unionTypes(branches: readonly (readonly Issue[])[]): string | null {
  const types: string[] = [];
  for (const branch of branches) {
    const [only] = branch;
    if (branch.length !== 1 || only?.code !== 'invalid_type' || only.path.length !== 0) return null;
    types.push(typeName(only.expected));
  }
  return types.length > 0 ? [...new Set(types)].join(' or ') : null;
}

function typeName(expected: string): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'number':
    case 'int':
      return expected === 'int' ? 'an integer' : 'a number';
    case 'boolean':
      return 'true or false';
    case 'object':
    case 'record':
      return 'an object';
    case 'array':
    case 'tuple':
      return 'an array';
    case 'null':
      return 'null';
    default:
      return `a value of type ${expected}`;
  }
}

function bound(
  origin: string,
  side: 'min' | 'max',
  limit: unknown,
  inclusive: boolean,
  exact: boolean,
): string {
  const n = Number(limit);
  const op = exact ? 'exactly' : side === 'min' ? (inclusive ? '≥' : '>') : inclusive ? '≤' : '<';
  const few = exact ? 'exactly' : side === 'min' ? 'at least' : 'at most';
  switch (origin) {
    case 'string':
      if (side === 'min' && n === 1 && !exact) return 'a non-empty string';
      return `a string of ${few} ${n} characters`;
    case 'array':
    case 'set':
      if (side === 'min' && n === 1 && !exact) return 'a non-empty array';
      return `an array of ${few} ${n} items`;
    case 'number':
    case 'int':
    case 'bigint':
    case 'date':
      return `a ${origin === 'int' ? 'whole number' : origin} ${op} ${n}`;
    default:
      return `a value of size ${op} ${n}`;
  }
}

function formatName(issue: z.core.$ZodIssueInvalidStringFormat): string {
  switch (issue.format) {
    case 'url':
      return 'an absolute URL';
    case 'datetime':
      return 'an ISO 8601 date-time';
    case 'regex':
      return `a string matching ${issue.pattern ?? 'the pattern'}`;
    case 'starts_with':
      return `a string starting with ${quote((issue as { prefix?: string }).prefix)}`;
    case 'ends_with':
      return `a string ending with ${quote((issue as { suffix?: string }).suffix)}`;
    case 'includes':
      return `a string containing ${quote((issue as { includes?: string }).includes)}`;
    default:
      return `a valid ${issue.format}`;
  }
}

function valueAt(root: unknown, path: Path): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** What came, short enough for one line: strings quoted (long ones cut), containers summarised. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    if (value.length <= MAX_QUOTED) return JSON.stringify(value);
    return `${JSON.stringify(value.slice(0, MAX_QUOTED))}… (${value.length} characters)`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) {
    return value.length === 0
      ? 'an empty array'
      : `an array of ${value.length} item${value.length > 1 ? 's' : ''}`;
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return 'an empty object';
    const shown = keys.slice(0, 5).map((k) => JSON.stringify(k));
    return `an object with keys ${shown.join(', ')}${keys.length > 5 ? ', …' : ''}`;
  }
  return `a ${typeof value}`;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** A zod failure as one line of issues, for messages that are not a VALIDATION_ERROR (logs, protocol errors). */
export function formatZodError(error: { issues: readonly Issue[] }, input: unknown): string {
  return summarizeIssues(describeZodIssues(error.issues, input));
}
