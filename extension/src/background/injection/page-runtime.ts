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

/** The `//# sourceURL` of injected code, so stack frames of the agent's code are recognisable. */
export const INJECTED_SOURCE_URL = 'x-ipe-inject.js';

/** The `//# sourceURL` of the page runtime and of the short script that calls a kept function. */
export const RUNTIME_SOURCE_URL = 'x-ipe-runtime.js';

/** What the one-script form answers on a page without the registry (none of the code ran). */
export const NO_RUNTIME = 'xipe:no-runtime';

/** What `call(id)` answers when the page does not keep that function (none of the code ran). */
export const NOT_KEPT = 'xipe:not-kept';

/**
 * How a registry keeps functions: the runtime's sourceURL, and the most functions and code
 * characters it keeps (the least recently used go first; the newest always stays).
 */
export interface KeptConfig {
  runtimeUrl: string;
  maxFunctions: number;
  maxChars: number;
}

/** Longer code is never kept: it goes as a script every call. */
export const KEPT_MAX_CHARS = 8 * 1024 * 1024;

export const KEPT_CONFIG: KeptConfig = {
  runtimeUrl: RUNTIME_SOURCE_URL,
  maxFunctions: 16,
  maxChars: KEPT_MAX_CHARS,
};

/** The name of the error `open()` throws in a dry run: the code parsed, and none of it ran. */
export const DRY_RUN = 'XipeDryRun';

/**
 * Runs IN THE PAGE (MAIN or USER_SCRIPT world): Chrome serializes it with `toString()`, so it must
 * not reference anything outside its own body (no imports, no module-level helpers).
 *
 * Installs (once per page and world) a registry `globalThis[registryName]`, not enumerable, whose
 * `begin(callId)` creates the slot a call reports into and makes it the registry's `current`:
 * `v` (the completion value, set by the rewritten code), `fail(e)` (a synchronous throw),
 * `finish()` (awaits the value if it is a thenable, converts it to JSON-safe data, removes the
 * slot) and `report()` (for runs whose value did not come through finish). An `error` listener
 * records a SyntaxError that stopped the injected script from running at all.
 *
 * For userScripts a call is one script, the same text on every call for the same code (so the
 * page's V8 reuses its compiled code: measured, a 24 KB call costs the page ~1 ms less CPU than
 * with per-call text): its first statement is `registry.open()`, which makes a slot the
 * registry's `current`, then the agent's code reports into it (one script costs the page and the
 * browser ~0.3 ms less than three). On a page without the registry it runs nothing and answers
 * NO_RUNTIME; it then goes again after this function with no callId, which installs the registry
 * (or returns at once). A run that brought back no outcome is diagnosed with three scripts: this
 * function, a tiny `begin(callId)` that listens for the code's SyntaxError and sets `dry`, then
 * the same code, whose `open()` then throws DRY_RUN before any of the agent's code runs.
 * `calls[callId]` finds that slot again from a later injection (`report()`).
 *
 * Kept functions: code that runs the same as a function body (`keepable`) goes in once as a
 * function the registry keeps (`keep(id, chars, fn)`, which also calls it), and a repeated call is
 * a short script, `call(id)`: the page neither receives nor compiles the text again. NOT_KEPT
 * when the page has no such function (evicted, or a new document). The functions are held in this
 * closure, not on the registry, so the page's own code cannot list them or read their text.
 * Reported stacks end above the registry's `keep` or `call` frame: what is under it (that frame,
 * and the script that defined or called the function) is ours, so a kept call reports the stack
 * the script form would.
 *
 * `link(eventName)` makes the registry listen on `document` for one event with that (random)
 * name whose `relatedTarget` is a node of our content script (page-channel.ts): `c` events on it
 * (`{n, id}`) call kept functions, and each answers with an `r` event (`{n, outcome}`, once a
 * returned promise settled), so a repeated call needs no script injection. A page that removed
 * the registry global gets NO_RUNTIME there too.
 *
 * With `code` set (scripting fallback) it runs the code itself with indirect eval and returns the
 * outcome; `eval_blocked` when the page CSP forbids eval.
 *
 * JSON-safe conversion (documented in the README): undefined → null at the top and in arrays,
 * dropped in objects (JSON.stringify rules); NaN/±Infinity → "NaN"/"Infinity"/"-Infinity";
 * bigint → "123n"; symbol → "Symbol(x)"; function → "[Function name]"; DOM nodes →
 * "[Element div#id.class]", "[Text \"…\"]", "[Document url]"; window → "[Window]"; Map → array of
 * [key, value]; Set, NodeList, HTMLCollection, typed arrays → arrays; Error → {name, message,
 * stack}; objects with toJSON (Date) → their toJSON(); RegExp → its source text; a nested
 * promise → "[Promise]"; a cycle → "[Circular]"; deeper than 100 levels → "[MaxDepth]"; after
 * 100000 values → "[Truncated]"; a throwing getter → "[Thrown: message]".
 */
export function pageRuntime(
  registryName: string,
  callId: string | null,
  code: string | null,
  lineOffset: number,
  sourceUrl: string,
  keeping: KeptConfig | null,
): unknown {
  type ErrorInfo = { name: string; message: string; stack?: string; line?: number; column?: number };
  type Outcome =
    | { status: 'ok'; value: unknown }
    | { status: 'error'; kind: 'throw' | 'rejection' | 'syntax'; error: ErrorInfo }
    | { status: 'eval_blocked'; message: string };
  interface Slot {
    v: unknown;
    ran: boolean;
    error: ErrorInfo | null;
    fail(err: unknown): void;
    dispose(): void;
    finish(): Outcome | Promise<Outcome>;
    report(): unknown;
  }
  interface Registry {
    current: Slot | null;
    calls: Record<string, Slot>;
    /** The next `open()` throws DRY_RUN instead of opening (a diagnosis: does the code parse?). */
    dry: boolean;
    opened: number;
    begin(callId: string, lineOffset: number, listen: boolean): Slot;
    open(lineOffset: number): Slot;
    keep(id: string, chars: number, fn: () => unknown): unknown;
    /** The ids of the kept functions, least recently used first. */
    keptIds(): string[];
    call(id: string): unknown;
    /** Listens for the worker's channel (`linkPage`, page-channel.ts); true when it listens. */
    link(eventName: string): boolean;
  }
  const g = globalThis as unknown as Record<string, unknown>;
  const installed = g[registryName] as Registry | undefined;
  // Already installed by an earlier call: the setup has nothing to do.
  if (installed !== undefined && callId === null) return undefined;

  const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const locate = (info: ErrorInfo, stack: string, lineOffset: number): ErrorInfo => {
    const match = new RegExp(`${escapeRegExp(sourceUrl)}:(\\d+):(\\d+)`).exec(stack);
    if (match !== null) {
      const line = Number(match[1]) - lineOffset;
      if (line >= 1) {
        info.line = line;
        info.column = Number(match[2]);
      }
    }
    return info;
  };

  /** The registry's frame that called a kept function: it and what called it are ours. */
  const keptEntry =
    keeping === null
      ? null
      : new RegExp(`^\\s+at \\S+\\.(?:keep|call) \\(${escapeRegExp(keeping.runtimeUrl)}:`);
  /** The stack without the frames under the agent's code that only a kept call has. */
  const withoutOwnFrames = (stack: string): string => {
    if (keptEntry === null) return stack;
    const lines = stack.split('\n');
    const cut = lines.findIndex((line) => keptEntry.test(line));
    return cut < 0 ? stack : lines.slice(0, cut).join('\n');
  };

  const describeError = (err: unknown, lineOffset: number): ErrorInfo => {
    if (err instanceof Error || (err !== null && typeof err === 'object' && 'message' in err)) {
      const e = err as { name?: unknown; message?: unknown; stack?: unknown };
      const stack = typeof e.stack === 'string' ? withoutOwnFrames(e.stack).slice(0, 4000) : undefined;
      const info: ErrorInfo = {
        name: typeof e.name === 'string' ? e.name : 'Error',
        message: typeof e.message === 'string' ? e.message : String(e.message),
      };
      if (stack !== undefined) {
        info.stack = stack;
        locate(info, stack, lineOffset);
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

  /** Kept functions by id, least recently used first, with their code's length (see above). */
  const kept = new Map<string, { fn: () => unknown; chars: number }>();
  /** The link listener waiting for its content script, and the node calls come on (see `link`). */
  let linking: { eventName: string; listener: (event: Event) => void } | null = null;
  let linked: { node: EventTarget; listener: (event: Event) => void } | null = null;
  const registry: Registry = installed ?? {
    current: null,
    calls: Object.create(null) as Record<string, Slot>,
    dry: false,
    opened: 0,
    open(offset: number): Slot {
      if (registry.dry) {
        registry.dry = false;
        const dry = new Error('dry run: the code parsed');
        dry.name = 'XipeDryRun'; // DRY_RUN (this function may not name module constants)
        throw dry;
      }
      registry.opened += 1;
      return registry.begin(`open-${registry.opened}`, offset, false);
    },
    begin(id: string, offset: number, listen: boolean): Slot {
      let syntax: ErrorInfo | null = null;
      const onError = (event: ErrorEvent): void => {
        const isSyntax = event.error instanceof SyntaxError || /SyntaxError/.test(event.message);
        if (!isSyntax || syntax !== null) return;
        const message = event.message.replace(/^Uncaught SyntaxError: /, '');
        syntax = { name: 'SyntaxError', message };
        if (event.lineno - offset >= 1) {
          syntax.line = event.lineno - offset;
          syntax.column = event.colno;
        }
      };
      const listening = listen && typeof addEventListener === 'function';
      if (listening) addEventListener('error', onError);
      const describe = (err: unknown): ErrorInfo => describeError(err, offset);
      /** The outcome for a settled value; the slot is gone afterwards. */
      const settle = (value: unknown): Outcome => {
        try {
          return { status: 'ok', value: toJsonSafe(value) };
        } catch (err) {
          return { status: 'error', kind: 'throw', error: describe(err) };
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
        fail(err: unknown): void {
          slot.error = describe(err);
        },
        dispose(): void {
          if (listening) removeEventListener('error', onError);
          if (registry.calls[id] === slot) delete registry.calls[id];
          if (registry.current === slot) registry.current = null;
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
            return settleError(describe(err));
          }
          if (typeof then !== 'function') return settle(value);
          return (async (): Promise<Outcome> => {
            let awaited: unknown;
            try {
              awaited = await value;
            } catch (err) {
              slot.dispose();
              return { status: 'error', kind: 'rejection', error: describe(err) };
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
      registry.calls[id] = slot;
      registry.current = slot;
      return slot;
    },
    keep(id: string, chars: number, fn: () => unknown): unknown {
      const limits = keeping ?? { maxFunctions: 1, maxChars: 0 };
      kept.delete(id);
      kept.set(id, { fn, chars });
      let total = 0;
      for (const entry of kept.values()) total += entry.chars;
      for (const [oldest, entry] of kept) {
        if (kept.size <= 1 || (kept.size <= limits.maxFunctions && total <= limits.maxChars)) break;
        kept.delete(oldest);
        total -= entry.chars;
      }
      return fn();
    },
    keptIds(): string[] {
      return Array.from(kept.keys());
    },
    call(id: string): unknown {
      const entry = kept.get(id);
      if (entry === undefined) return 'xipe:not-kept'; // NOT_KEPT
      kept.delete(id);
      kept.set(id, entry);
      // Called bare, as `keep` calls it: `this` is the global object, as in a script.
      const fn = entry.fn;
      return fn();
    },
    link(eventName: string): boolean {
      if (typeof document === 'undefined') return false;
      if (linking !== null) document.removeEventListener(linking.eventName, linking.listener);
      const onLink = (event: Event): void => {
        const node = (event as MouseEvent).relatedTarget as EventTarget | null;
        if (node === null || typeof node.addEventListener !== 'function') return;
        document.removeEventListener(eventName, onLink);
        linking = null;
        // The content script learns from this that the page listens (its dispatch returns false).
        event.preventDefault();
        const answer = (n: unknown, body: Record<string, unknown>): void => {
          node.dispatchEvent(new CustomEvent('r', { detail: JSON.stringify({ n, ...body }) }));
        };
        const onCall = (call: Event): void => {
          let n: unknown = null;
          let out: unknown;
          try {
            const asked = JSON.parse((call as CustomEvent<string>).detail) as { n: unknown; id: string };
            n = asked.n;
            // A page (or script) that removed the registry gets it again, as a `call` script would.
            if (g[registryName] !== registry) {
              answer(n, { outcome: 'xipe:no-runtime' }); // NO_RUNTIME
              return;
            }
            out = registry.call(asked.id);
          } catch {
            answer(n, { outcome: null });
            return;
          }
          const then = out !== null && typeof out === 'object' ? (out as { then?: unknown }).then : undefined;
          if (typeof then !== 'function') {
            answer(n, { outcome: out });
            return;
          }
          (out as Promise<unknown>).then(
            (outcome) => answer(n, { outcome }),
            () => answer(n, { outcome: null }),
          );
        };
        if (linked !== null) linked.node.removeEventListener('c', linked.listener);
        linked = { node, listener: onCall };
        node.addEventListener('c', onCall);
      };
      linking = { eventName, listener: onLink };
      document.addEventListener(eventName, onLink);
      return true;
    },
  };
  if (installed === undefined) {
    // Not enumerable, so the page's own enumeration of globals does not meet it.
    Object.defineProperty(g, registryName, { value: registry, configurable: true, writable: true });
  }
  if (callId === null) return undefined;
  const slot = registry.begin(callId, lineOffset, code === null);
  if (code === null) return undefined;

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
      return { status: 'error', kind: 'syntax', error: describeError(err, lineOffset) };
    }
    slot.fail(err);
  }
  return slot.finish();
}
