import type { z } from 'zod';
import { LruCache } from './lru-cache.js';

/**
 * A zod schema's `safeParse` that remembers what it accepted. Agents repeat the same small params
 * call after call (the same script by its hash, into the same tab), and every process on the way
 * parsed them again: a cold zod parse costs ~0.03–0.05 ms, more without eval (an extension's
 * service worker, where zod cannot compile its fast path). For inputs that came from JSON.parse
 * (their JSON text says all there is of them): keyed by that text, a hit is an input identical to
 * one the schema accepted. Inputs whose text is longer than `maxKeyChars` (a script sent in full)
 * and every failure are parsed each time, the failure's issues being the caller's to report. A
 * kept result is deeply frozen: no caller can change what the next one gets.
 */
export class ParseMemo<S extends z.ZodType> {
  private readonly accepted: LruCache<string, z.ZodSafeParseSuccess<z.output<S>>>;

  constructor(
    readonly schema: S,
    maxEntries = 32,
    private readonly maxKeyChars = 2048,
  ) {
    this.accepted = new LruCache(maxEntries);
  }

  safeParse(input: unknown): z.ZodSafeParseResult<z.output<S>> {
    // A payload of megabytes (a save, a screenshot) is not even turned into text to find that out.
    if (!mayFit(input, this.maxKeyChars)) return this.schema.safeParse(input);
    const key = jsonText(input);
    if (key === null || key.length > this.maxKeyChars) return this.schema.safeParse(input);
    const known = this.accepted.get(key);
    if (known !== undefined) return known;
    const result = this.schema.safeParse(input);
    if (result.success) this.accepted.set(key, deepFreeze(result));
    return result;
  }
}

/**
 * False when `value`'s JSON text is surely longer than `maxChars`. Each part counts the fewest
 * characters its text can take (a string its length and quotes, an element its comma, a key its
 * quotes, colon and comma), and the walk stops once they add up to more: it never visits much more
 * than `maxChars` worth of a payload.
 */
export function mayFit(value: unknown, maxChars: number): boolean {
  let left = maxChars;
  const stack: unknown[] = [value];
  while (stack.length > 0 && left >= 0) {
    const item = stack.pop();
    if (typeof item === 'string') left -= item.length + 2;
    else if (Array.isArray(item)) {
      left -= item.length + 1;
      if (left >= 0) for (const element of item) stack.push(element);
    } else if (item !== null && typeof item === 'object') {
      left -= 1;
      for (const key in item) {
        const inner: unknown = (item as Record<string, unknown>)[key];
        // Left out of the text, like JSON.stringify does.
        if (!Object.hasOwn(item, key) || inner === undefined || typeof inner === 'function') continue;
        left -= key.length + 4;
        if (left < 0) break;
        stack.push(inner);
      }
    } else left -= 1;
  }
  return left >= 0;
}

function jsonText(input: unknown): string | null {
  try {
    return JSON.stringify(input) ?? null;
  } catch {
    return null; // a cycle or a bigint: not something a wire delivers
  }
}

export function deepFreeze<T>(value: T): T {
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
