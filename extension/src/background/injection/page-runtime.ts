import { z } from 'zod';

/**
 * What an injection reports back from the page. `pageRuntime` below builds it in the page; the
 * worker parses it with `PageOutcome` (it crossed a process boundary).
 */
export const PageError = z.object({
  name: z.string(),
  message: z.string(),
  stack: z.string().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});
export type PageError = z.infer<typeof PageError>;

export const PageOutcome = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), value: z.unknown() }),
  z.object({ status: z.literal('error'), kind: z.enum(['throw', 'rejection', 'syntax']), error: PageError }),
  z.object({ status: z.literal('eval_blocked'), message: z.string() }),
]);
export type PageOutcome = z.infer<typeof PageOutcome>;

/** Reported by `slot.report()` after a run whose value did not come through `finish()`. */
export const PageReport = z.object({
  ran: z.boolean(),
  error: PageError.nullable(),
  syntax: PageError.nullable(),
});
export type PageReport = z.infer<typeof PageReport>;

/** The `//# sourceURL` of injected code (ours and the agent's), so its stack frames are recognisable. */
export const INJECTED_SOURCE_URL = 'x-ipe-inject.js';

/** The name of the error `open()` throws in a dry run: the code parsed, and none of it ran. */
export const DRY_RUN = 'XipeDryRun';

/** How one call's runtime is set up (see `pageRuntime`). */
export interface RuntimeOptions {
  /**
   * A global name, random per call, the slot is also reachable by until the call is over, for
   * the scripts that follow it in the same call (a dry run, code that runs unrewritten). Null:
   * the slot is only returned, to a block-scoped constant of the one script that runs the code.
   */
  global: string | null;
  /** Lines of our own text above the agent's first line. */
  lineOffset: number;
  sourceUrl: string;
  /** Record a SyntaxError that stopped the next script from running (an `error` listener). */
  listen: boolean;
  /** `open()` throws DRY_RUN: the code parsed, and none of it runs. */
  dry: boolean;
  /** Scripting fallback: run this code with indirect eval and return the outcome. */
  code: string | null;
}

/**
 * Runs IN THE PAGE (MAIN or USER_SCRIPT world): Chrome serializes it with `toString()`, so it must
 * not reference anything outside its own body (no imports, no module-level helpers).
 *
 * Every call sets up its own runtime: nothing of ours stays in the page after the call, nothing is
 * kept for a later call, and no name is the same from call to call. In the MAIN world the page
 * may have patched any built-in before we arrive, so nothing done there can be made unreadable or
 * unforgeable: a main-world result is produced inside the page and can be influenced by it (the
 * isolated world is the safe choice). What this function avoids is handing the page a standing
 * handle: the usual call leaves no global at all (the slot lives in a block-scoped constant of the
 * one script that runs the agent's code).
 *
 * The slot: `v` (the completion value, set by the rewritten code), `fail(e)` (a synchronous
 * throw), `finish()` (awaits the value if it is a thenable, converts it to JSON-safe data, then
 * disposes of the slot), `open()` (the diagnosis scripts' first statement) and `report()` (for
 * runs whose value did not come through finish). With `listen`, an `error` listener records a
 * SyntaxError that stopped the injected script from running at all.
 *
 * With `code` set (scripting fallback) it runs the code itself with indirect eval and returns the
 * outcome; `eval_blocked` when the page CSP forbids eval.
 *
 * JSON-safe conversion (documented in docs/architecture.md): undefined → null at the top and in
 * arrays, dropped in objects (JSON.stringify rules); NaN/±Infinity → "NaN"/"Infinity"/"-Infinity";
 * bigint → "123n"; symbol → "Symbol(x)"; function → "[Function name]"; DOM nodes →
 * "[Element div#id.class]", "[Text \"…\"]", "[Document url]"; window → "[Window]"; Map → array of
 * [key, value]; Set, NodeList, HTMLCollection, typed arrays → arrays; Error → {name, message,
 * stack}; objects with toJSON (Date) → their toJSON(); RegExp → its source text; a nested
 * promise → "[Promise]"; a cycle → "[Circular]"; deeper than 100 levels → "[MaxDepth]"; after
 * 100000 values → "[Truncated]"; a throwing getter → "[Thrown: message]".
 */
export function pageRuntime(options: RuntimeOptions): unknown {
  const { global: globalName, lineOffset, sourceUrl, listen, dry, code } = options;
  type ErrorInfo = { name: string; message: string; stack?: string; line?: number; column?: number };
  type Outcome =
    | { status: 'ok'; value: unknown }
    | { status: 'error'; kind: 'throw' | 'rejection' | 'syntax'; error: ErrorInfo }
    | { status: 'eval_blocked'; message: string };
  interface Slot {
    v: unknown;
    ran: boolean;
    error: ErrorInfo | null;
    open(): Slot;
    fail(err: unknown): void;
    dispose(): void;
    finish(): Outcome | Promise<Outcome>;
    report(): unknown;
  }
  // Our frames share the agent's sourceURL (one script): theirs are the ones below lineOffset.
  const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const locate = (info: ErrorInfo, stack: string): ErrorInfo => {
    const frames = new RegExp(`${escapeRegExp(sourceUrl)}:(\\d+):(\\d+)`, 'g');
    for (const match of stack.matchAll(frames)) {
      const line = Number(match[1]) - lineOffset;
      if (line >= 1) {
        info.line = line;
        info.column = Number(match[2]);
        break;
      }
    }
    return info;
  };

  const describeError = (err: unknown): ErrorInfo => {
    if (err instanceof Error || (err !== null && typeof err === 'object' && 'message' in err)) {
      const e = err as { name?: unknown; message?: unknown; stack?: unknown };
      const stack = typeof e.stack === 'string' ? e.stack.slice(0, 4000) : undefined;
      const info: ErrorInfo = {
        name: typeof e.name === 'string' ? e.name : 'Error',
        message: typeof e.message === 'string' ? e.message : String(e.message),
      };
      if (stack !== undefined) {
        info.stack = stack;
        locate(info, stack);
      }
      return info;
    }
    let text: string;
    try {
      text = typeof err === 'string' ? err : (JSON.stringify(err) ?? String(err));
    } catch {
      text = String(err);
    }
    return { name: 'Thrown value', message: text };
  };

  const toJsonSafe = (root: unknown): unknown => {
    let budget = 100_000;
    const ancestors = new Set<object>();
    const describeNode = (node: Node): string => {
      if (node.nodeType === 1) {
        const el = node as Element;
        const id = el.id ? `#${el.id}` : '';
        const classes =
          typeof el.className === 'string' && el.className.trim() !== ''
            ? `.${el.className.trim().split(/\s+/).join('.')}`
            : '';
        return `[Element ${el.localName}${id}${classes}]`;
      }
      if (node.nodeType === 3) {
        const text = node.textContent ?? '';
        return `[Text ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)}]`;
      }
      if (node.nodeType === 9) return `[Document ${(node as Document).URL}]`;
      return `[Node ${node.nodeName}]`;
    };
    const convert = (value: unknown, depth: number): unknown => {
      if (--budget < 0) return '[Truncated]';
      switch (typeof value) {
        case 'undefined':
          return undefined;
        case 'string':
        case 'boolean':
          return value;
        case 'number':
          return Number.isFinite(value) ? value : String(value);
        case 'bigint':
          return `${value}n`;
        case 'symbol':
          return value.toString();
        case 'function':
          return `[Function ${value.name || 'anonymous'}]`;
      }
      if (value === null) return null;
      const obj = value as object;
      if (typeof Node !== 'undefined' && obj instanceof Node) return describeNode(obj);
      if (typeof Window !== 'undefined' && obj instanceof Window) return '[Window]';
      if (ancestors.has(obj)) return '[Circular]';
      if (depth > 100) return '[MaxDepth]';
      ancestors.add(obj);
      try {
        if (obj instanceof Promise) return '[Promise]';
        if (obj instanceof Error) {
          return { name: obj.name, message: obj.message, ...(obj.stack ? { stack: obj.stack } : {}) };
        }
        if (obj instanceof RegExp) return String(obj);
        if (obj instanceof ArrayBuffer) return `[ArrayBuffer ${obj.byteLength} bytes]`;
        const toJSON = (obj as { toJSON?: unknown }).toJSON;
        if (typeof toJSON === 'function') return convert(toJSON.call(obj), depth + 1);
        let list: unknown[] | null = null;
        if (Array.isArray(obj)) list = obj;
        else if (obj instanceof Map) list = Array.from(obj.entries());
        else if (obj instanceof Set) list = Array.from(obj);
        else if (ArrayBuffer.isView(obj) && !(obj instanceof DataView)) {
          list = Array.from(obj as unknown as ArrayLike<unknown>);
        } else if (
          (typeof NodeList !== 'undefined' && obj instanceof NodeList) ||
          (typeof HTMLCollection !== 'undefined' && obj instanceof HTMLCollection)
        ) {
          list = Array.from(obj as ArrayLike<unknown>);
        }
        if (list !== null) {
          return list.map((item) => {
            const converted = convert(item, depth + 1);
            return converted === undefined ? null : converted;
          });
        }
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(obj)) {
          let converted: unknown;
          try {
            converted = convert((obj as Record<string, unknown>)[key], depth + 1);
          } catch (err) {
            converted = `[Thrown: ${err instanceof Error ? err.message : String(err)}]`;
          }
          if (converted !== undefined) out[key] = converted;
        }
        return out;
      } finally {
        ancestors.delete(obj);
      }
    };
    const converted = convert(root, 0);
    return converted === undefined ? null : converted;
  };

  const g = globalThis as unknown as Record<string, unknown>;
  let syntax: ErrorInfo | null = null;
  const onError = (event: ErrorEvent): void => {
    const isSyntax = event.error instanceof SyntaxError || /SyntaxError/.test(event.message);
    if (!isSyntax || syntax !== null) return;
    syntax = { name: 'SyntaxError', message: event.message.replace(/^Uncaught SyntaxError: /, '') };
    if (event.lineno - lineOffset >= 1) {
      syntax.line = event.lineno - lineOffset;
      syntax.column = event.colno;
    }
  };
  const listening = listen && typeof addEventListener === 'function';
  if (listening) addEventListener('error', onError);
  let dryRun = dry;

  /** The outcome for a settled value; the slot is gone afterwards. */
  const settle = (value: unknown): Outcome => {
    try {
      return { status: 'ok', value: toJsonSafe(value) };
    } catch (err) {
      return { status: 'error', kind: 'throw', error: describeError(err) };
    } finally {
      slot.dispose();
    }
  };
  const settleError = (error: ErrorInfo): Outcome => {
    slot.dispose();
    return { status: 'error', kind: 'throw', error };
  };
  const slot: Slot = {
    v: undefined,
    ran: false,
    error: null,
    open(): Slot {
      if (dryRun) {
        dryRun = false;
        const stop = new Error('dry run: the code parsed');
        stop.name = 'XipeDryRun'; // DRY_RUN (this function may not name module constants)
        throw stop;
      }
      return slot;
    },
    fail(err: unknown): void {
      slot.error = describeError(err);
    },
    dispose(): void {
      if (listening) removeEventListener('error', onError);
      if (globalName !== null && g[globalName] === slot) delete g[globalName];
    },
    // Synchronous unless the value is a thenable: Chrome then returns the outcome without
    // waiting for a promise of ours.
    finish(): Outcome | Promise<Outcome> {
      if (slot.error !== null) return settleError(slot.error);
      const value = slot.v;
      let then: unknown;
      try {
        then =
          value !== null && (typeof value === 'object' || typeof value === 'function')
            ? (value as { then?: unknown }).then
            : undefined;
      } catch (err) {
        return settleError(describeError(err));
      }
      if (typeof then !== 'function') return settle(value);
      return (async (): Promise<Outcome> => {
        let awaited: unknown;
        try {
          awaited = await value;
        } catch (err) {
          slot.dispose();
          return { status: 'error', kind: 'rejection', error: describeError(err) };
        }
        // A top-level-await script reports its throws through fail(): still a throw.
        if (slot.error !== null) return settleError(slot.error);
        return settle(awaited);
      })();
    },
    report(): unknown {
      slot.dispose();
      return { ran: slot.ran, error: slot.error, syntax };
    },
  };
  if (globalName !== null) {
    // Not enumerable, so the page's own enumeration of globals does not meet it by chance.
    Object.defineProperty(g, globalName, { value: slot, configurable: true, writable: true });
  }
  if (code === null) return slot;

  // Called through a variable, eval is indirect: global scope, like a top-level script.
  // biome-ignore lint/security/noGlobalEval: running the agent's code in the page is this function's purpose
  const indirectEval: (source: string) => unknown = globalThis.eval;
  try {
    indirectEval('0');
  } catch (err) {
    slot.dispose();
    return { status: 'eval_blocked', message: err instanceof Error ? err.message : String(err) };
  }
  try {
    slot.v = indirectEval(code);
  } catch (err) {
    // A SyntaxError with no frame in the injected code is a parse error of the code itself (one
    // thrown at run time, e.g. by JSON.parse, has such a frame).
    if (err instanceof SyntaxError && !(typeof err.stack === 'string' && err.stack.includes(sourceUrl))) {
      slot.dispose();
      return { status: 'error', kind: 'syntax', error: describeError(err) };
    }
    slot.fail(err);
  }
  return slot.finish();
}
