import type { z } from 'zod';

/**
 * A zod schema's `safeParse` that remembers what it accepted. Agents repeat the same small params
 * call after call (the same script by its hash, into the same tab), and every process on the way
 * parsed them again: a cold zod parse costs ~0.03–0.05 ms, more without eval (an extension's
 * service worker, where zod cannot compile its fast path). For inputs that came from JSON.parse
 * (their JSON text says all there is of them): keyed by that text, a hit is an input identical to
 * one the schema accepted. Inputs whose text is longer than
 * `maxKeyChars` (a script sent in full) and every failure are parsed each time, the failure's
 * issues being the caller's to report. A kept result is deeply frozen: no caller can change what
 * the next one gets.
 */
export class ParseMemo<S extends z.ZodType> {
  private readonly accepted = new Map<string, z.ZodSafeParseSuccess<z.output<S>>>();

  constructor(
    readonly schema: S,
    private readonly maxEntries = 32,
    private readonly maxKeyChars = 2048,
  ) {}

  safeParse(input: unknown): z.ZodSafeParseResult<z.output<S>> {
    const key = jsonText(input);
    if (key === null || key.length > this.maxKeyChars) return this.schema.safeParse(input);
    const known = this.accepted.get(key);
    if (known !== undefined) {
      // Most recently used last, so the oldest entry is the first to go.
      this.accepted.delete(key);
      this.accepted.set(key, known);
      return known;
    }
    const result = this.schema.safeParse(input);
    if (result.success) {
      if (this.accepted.size >= this.maxEntries) {
        const oldest = this.accepted.keys().next();
        if (oldest.done !== true) this.accepted.delete(oldest.value);
      }
      this.accepted.set(key, deepFreeze(result));
    }
    return result;
  }
}

function jsonText(input: unknown): string | null {
  try {
    return JSON.stringify(input) ?? null;
  } catch {
    return null; // a cycle or a bigint: not something a wire delivers
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const memos = new WeakMap<z.ZodType, ParseMemo<z.ZodType>>();

/** `schema.safeParse(input)` through the one ParseMemo this process keeps for `schema`. */
export function memoizedSafeParse<S extends z.ZodType>(
  schema: S,
  input: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  let memo = memos.get(schema);
  if (memo === undefined) {
    memo = new ParseMemo(schema);
    memos.set(schema, memo);
  }
  return memo.safeParse(input) as z.ZodSafeParseResult<z.output<S>>;
}
