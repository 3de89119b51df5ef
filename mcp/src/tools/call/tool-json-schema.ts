import { z } from 'zod';
import type { AnyTool } from '../define-tool.js';

/**
 * The input JSON Schema a tool shows in `tools/list` (DESIGN §5): derived from its zod schema, then
 * shaped for the clients that read it.
 *
 * - **One string `type` per property, at every level.** Form-driven clients (the MCP Inspector)
 *   turn an argument into an object or an array only when `type` is exactly "object" or "array";
 *   zod's `.nullish()` emits `anyOf [X, {type: null}]` and a union emits `anyOf`, so those
 *   arguments arrived as JSON text. Null stays accepted where zod accepts it: the server validates
 *   with the zod schema, never with this one, and null means absent anyway. A union of several
 *   types is shown as its first option, the others named in the description.
 * - **Only what a model needs.** Keywords that restate JSON's defaults (`additionalProperties: {}`,
 *   string property names), integer bounds of ±2^53, length caps of 1000+ characters and a regex
 *   that repeats a `format` cost context on every `tools/list` and tell a model nothing; the
 *   server still enforces them and names the field when one is missed.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Caps at or above this are limits against abuse, not guidance a model needs. */
const NOISE_LENGTH = 1000;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

/**
 * One schema node shaped as described above (pure; returns a new object). `depth` counts the
 * property levels above it: below the tool's own arguments, length bounds are dropped too (the
 * model needs the shape of nested data, the server enforces its sizes).
 */
export function singleTyped(node: Json, depth = 0): Json {
  let out: Json = { ...node };
  const options = Array.isArray(out.anyOf) ? out.anyOf : Array.isArray(out.oneOf) ? out.oneOf : null;
  if (options !== null) {
    const { anyOf: _a, oneOf: _o, ...rest } = out;
    const flat = options.filter(isObject).flatMap(flattenUnion);
    const kept = flat.filter((option) => option.type !== 'null');
    const [first] = kept;
    if (first !== undefined) {
      out = { ...singleTyped(first, depth), ...rest };
      const others = [
        ...new Set(
          kept
            .slice(1)
            .map((o) => o.type)
            .filter((t) => t !== first.type),
        ),
      ];
      if (others.length > 0) {
        const alternatives = others.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');
        const said = typeof out.description === 'string' ? `${out.description} ` : '';
        out.description = `${said}(or ${alternatives})`.trim();
      }
    }
  }
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t) => t !== 'null');
    out.type = types[0] ?? 'string';
  }
  delete out.$schema;
  if (isObject(out.additionalProperties) && Object.keys(out.additionalProperties).length === 0)
    delete out.additionalProperties;
  if (isObject(out.propertyNames) && out.propertyNames.type === 'string') delete out.propertyNames;
  if (out.maximum === MAX_SAFE) delete out.maximum;
  if (out.minimum === -MAX_SAFE) delete out.minimum;
  if (typeof out.maxLength === 'number' && (out.maxLength >= NOISE_LENGTH || depth > 1)) delete out.maxLength;
  if (depth > 1) delete out.minLength;
  if (typeof out.format === 'string' && typeof out.pattern === 'string') delete out.pattern;
  if (isObject(out.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([key, value]) => [
        key,
        isObject(value) ? singleTyped(value, depth + 1) : value,
      ]),
    );
  }
  if (isObject(out.items)) out.items = singleTyped(out.items, depth);
  if (isObject(out.additionalProperties))
    out.additionalProperties = singleTyped(out.additionalProperties, depth + 1);
  if (out.type === undefined && isObject(out.properties)) out.type = 'object';
  return out;
}

/** `anyOf [anyOf [a, b], null]` → `[a, b, null]`. */
function flattenUnion(option: Json): Json[] {
  const inner = Array.isArray(option.anyOf)
    ? option.anyOf
    : Array.isArray(option.oneOf)
      ? option.oneOf
      : null;
  if (inner === null || Object.keys(option).length > 1) return [option];
  return inner.filter(isObject).flatMap(flattenUnion);
}

const SCHEMAS = new WeakMap<AnyTool, Json>();

/** What `tools/list` shows as the tool's `inputSchema` (computed once per tool). */
export function toolInputJsonSchema(tool: AnyTool): { type: 'object'; [key: string]: unknown } {
  let schema = SCHEMAS.get(tool);
  if (schema === undefined) {
    // Draft-07: the dialect every client we know of accepts.
    schema = singleTyped(z.toJSONSchema(tool.inputSchema, { io: 'input', target: 'draft-7' }) as Json);
    SCHEMAS.set(tool, schema);
  }
  return { ...schema, type: 'object' };
}

/** The properties whose listed type is "object" or "array": where a client may send JSON text instead. */
export function structuredProperties(tool: AnyTool): Map<string, 'object' | 'array'> {
  const properties = toolInputJsonSchema(tool).properties;
  const found = new Map<string, 'object' | 'array'>();
  if (!isObject(properties)) return found;
  for (const [key, value] of Object.entries(properties)) {
    if (isObject(value) && (value.type === 'object' || value.type === 'array')) found.set(key, value.type);
  }
  return found;
}

/**
 * Arguments with every top-level object or array that arrived as JSON text of that kind replaced
 * by its parsed value (a client that typed it as a string, or an agent that serialised it). Text
 * that is not JSON, or JSON of another kind, is left for the schema to refuse (see `jsonTextHint`).
 */
export function acceptJsonText(tool: AnyTool, args: unknown): unknown {
  if (!isObject(args)) return args;
  let out: Json | null = null;
  for (const [key, kind] of structuredProperties(tool)) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    const parsed = parseJson(value);
    if (kind === 'array' ? !Array.isArray(parsed) : !isObject(parsed)) continue;
    out ??= { ...args };
    out[key] = parsed;
  }
  return out ?? args;
}

/** The fields of `args` that hold text where an object or array belongs (for the refusal's next step). */
export function jsonTextFields(tool: AnyTool, args: unknown): string[] {
  if (!isObject(args)) return [];
  return [...structuredProperties(tool).keys()].filter((key) => typeof args[key] === 'string');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
