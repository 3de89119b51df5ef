import { Deadlines, withDeadline } from '#shared/deadlines.js';
import type { InjectMethod, InjectWorld } from '#shared/index.js';
import { XipeError } from '#shared/index.js';
import { LruCache } from '#shared/lru-cache.js';
import { executeFunction, userScriptsNamespace } from '../../platform/browser.js';
import { type InstrumentResult, instrumentCompletion, neutralizeHashbang } from './completion.js';
import { fromOutcome, mapApiError, scriptError } from './injection-errors.js';
import {
  DRY_RUN,
  INJECTED_SOURCE_URL,
  PageOutcome,
  PageReport,
  pageRuntime,
  type RuntimeOptions,
} from './page-runtime.js';

/**
 * Runs a code string in a tab and returns its completion value (promises awaited), or throws a
 * XipeError: SCRIPT_ERROR for a throw, a rejection or a syntax error — never a silent null —,
 * INJECTION_BLOCKED, TAB_NOT_FOUND or TIMEOUT.
 *
 * Measured in Chromium 156: userScripts.execute and scripting.executeScript both return a bare
 * `result: null` (no `error` field) for a throw, a rejection and a syntax error, and an
 * un-serializable value (DOM node, Map, cycle, undefined, NaN) comes back as {} or null. So the
 * value never goes to Chrome raw:
 *
 * - userScripts (works under any page CSP): one fresh script per call, which sets up this call's
 *   own runtime (`pageRuntime`) in a block-scoped constant and then runs the agent's code,
 *   rewritten by `instrumentCompletion` so its completion value lands in that slot, inside
 *   try/catch, ending with `slot.finish()` — our own outcome (a promise of it when the value is a
 *   thenable, which Chrome awaits), which Chrome returns. Nothing is kept in the page between
 *   calls and nothing of ours is a global during the call: in the MAIN world the page can patch
 *   any built-in before we arrive, so what it sees must be worth nothing to it, and a main-world
 *   result is produced inside the page and can be influenced by it (the isolated world is the
 *   safe choice). A script that does not parse never runs; acorn reports it before injecting.
 *   When no outcome comes back (V8 rejected what acorn accepted, or the page went away), a dry
 *   run tells which: two scripts, the runtime under a global name random for this call with an
 *   `error` listener that catches a SyntaxError, and the code, whose first statement then stops
 *   it before any of the agent's code runs. If acorn cannot parse code V8 accepts (newer syntax),
 *   the code runs unrewritten (try/catch only, after the runtime, as two scripts) and its value
 *   is Chrome's own conversion.
 * - scripting fallback (user scripts not allowed): `pageRuntime` as the injected function runs the
 *   code with indirect eval in the MAIN world; a CSP that forbids eval → INJECTION_BLOCKED saying
 *   how to allow user scripts. The ISOLATED world forbids eval for every extension (measured), so
 *   `world: isolated` needs user scripts.
 */

export const ALLOW_USER_SCRIPTS_HOWTO =
  'Allow user scripts for the extension once: open chrome://extensions → X-IPE UI/UX Reference → ' +
  'Details → turn on "Allow User Scripts", then retry. `x-ipe-uiux start` turns it on for its own ' +
  'browser profile.';

export interface InjectionRequest {
  tabId: number;
  code: string;
  world: InjectWorld;
  timeoutMs: number;
}

export interface InjectionOutput {
  returnValue: unknown;
  method: InjectMethod;
}

const randomHex = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The block-scoped constant that holds a call's slot inside the injected script: never a global,
 * so the page cannot name it; random so the agent's code does not declare it by chance.
 */
const SLOT = `__xipeCall${randomHex()}`;
/** A global name for one call's diagnosis scripts: random per call, gone when the call is over. */
const callGlobal = (): string => `__xipe${randomHex()}`;
const RUNTIME = pageRuntime.toString();
const SOURCE_URL_TAIL = `\n//# sourceURL=${INJECTED_SOURCE_URL}`;

const runtimeCall = (options: RuntimeOptions): string => `(${RUNTIME})(${JSON.stringify(options)})`;
const options = (lineOffset: number, rest: Partial<RuntimeOptions> = {}): RuntimeOptions => ({
  global: null,
  lineOffset,
  sourceUrl: INJECTED_SOURCE_URL,
  listen: false,
  dry: false,
  code: null,
  ...rest,
});

/** Head of the one-script form, up to `try {`; the runtime's own lines come before the code. */
const INLINE_HEAD_START = `{ const ${SLOT} = `;
const INLINE_OFFSET = `${INLINE_HEAD_START}${runtimeCall(options(0))}`.split('\n').length;
const INLINE_HEAD = `${INLINE_HEAD_START}${runtimeCall(options(INLINE_OFFSET))}; try {`;

/** What the agent's code becomes for userScripts: the rewrite (or why it failed) and its text. */
interface PreparedCode {
  instrumented: InstrumentResult;
  /** From the line after `try {` to the end: the code, reporting into SLOT. */
  tail: string;
}

/**
 * Agents run the same files again and again: the rewrite of recent scripts is kept in the worker
 * (keyed by the code itself; at most 16 scripts and 8 Mi characters of code plus rewrite).
 */
const prepared = new LruCache<string, PreparedCode>(16, 8 * 1024 * 1024);

/**
 * Rewrites code now, for a run that will follow (kept like any rewrite): the handler calls it
 * while the worker checks a script sent in full against its hash, which crypto.subtle computes
 * off this thread, so the two overlap. Nothing to do when user scripts are off (the fallback
 * runs the code as it is).
 */
export function prepareAhead(code: string): void {
  if (userScriptsNamespace() !== undefined) prepare(code);
}

function prepare(code: string): PreparedCode {
  const cached = prepared.get(code);
  if (cached !== undefined) return cached;
  const instrumented = instrumentCompletion(code, SLOT);
  const tail = instrumented.ok
    ? `\n${instrumented.code}\n} catch (e) { ${SLOT}.fail(e) }\n${SLOT}.finish(); }${SOURCE_URL_TAIL}`
    : `\n${neutralizeHashbang(code)}\n} catch (e) { ${SLOT}.fail(e); undefined } finally { ${SLOT}.ran = true } }${SOURCE_URL_TAIL}`;
  const result = { instrumented, tail };
  prepared.set(code, result, code.length + tail.length);
  return result;
}

/**
 * Chrome threw synchronously from `userScripts.execute`: user scripts are not allowed (the toggle
 * is off while the namespace exists). Nothing ran; the scripting fallback takes over.
 */
class UserScriptsUnavailable extends Error {}

type UserScripts = NonNullable<ReturnType<typeof userScriptsNamespace>>;

/**
 * Prefers userScripts. Its availability is not probed first (that is one more browser round trip
 * per call, `userScriptsApi()`'s getScripts): the namespace is missing while the toggle is off,
 * or its methods throw synchronously.
 */
async function runEither(request: InjectionRequest): Promise<InjectionOutput> {
  const api = userScriptsNamespace();
  if (api !== undefined) {
    try {
      return { returnValue: await viaUserScripts(api, request), method: 'userScripts' };
    } catch (err) {
      if (!(err instanceof UserScriptsUnavailable)) throw err;
    }
  }
  return { returnValue: await viaScripting(request), method: 'scripting' };
}

/** The deadlines of the injections running now, on one timer. */
const deadlines = new Deadlines();

export function runInjection(request: InjectionRequest): Promise<InjectionOutput> {
  return withDeadline(
    deadlines,
    runEither(request),
    request.timeoutMs,
    () =>
      new XipeError(
        'TIMEOUT',
        `The script did not finish within ${request.timeoutMs} ms (it may still be running in the page). ` +
          'Pass a larger timeout_ms, or make the script resolve sooner.',
        { timeout_ms: request.timeoutMs, tab_id: request.tabId },
      ),
  );
}

async function viaUserScripts(api: UserScripts, request: InjectionRequest): Promise<unknown> {
  const world = request.world === 'main' ? 'MAIN' : 'USER_SCRIPT';
  const { instrumented, tail } = prepare(request.code);

  const execute = async (code: string | readonly string[], first = false): Promise<unknown> => {
    const sources = (typeof code === 'string' ? [code] : code).map((text) => ({ code: text }));
    const [head, ...rest] = sources;
    if (head === undefined) return null;
    let pending: Promise<{ result?: unknown }[]>;
    try {
      pending = api.execute({
        target: { tabId: request.tabId },
        js: [head, ...rest],
        world,
        injectImmediately: true,
      });
    } catch (err) {
      // Only before anything ran may the fallback take over (it would run the code a second time).
      if (first) throw new UserScriptsUnavailable((err as Error).message);
      throw mapApiError(err, request.tabId);
    }
    try {
      return (await pending)[0]?.result ?? null;
    } catch (err) {
      throw mapApiError(err, request.tabId);
    }
  };

  // Two scripts (this call's runtime under a global name of its own, then the code reaching it
  // by that name): for code that runs unrewritten, and for a dry run, which `open()` stops.
  const global = callGlobal();
  const inSlot = (dry: boolean): Promise<unknown> =>
    execute(
      [
        `${runtimeCall(options(1, { global, listen: true, dry }))};`,
        `{ const ${SLOT} = globalThis[${JSON.stringify(global)}]; undefined; try {${instrumented.ok ? ` ${SLOT}.open();` : ''}${tail}`,
      ],
      !dry,
    );
  let result: unknown;
  if (instrumented.ok) {
    const outcome = PageOutcome.safeParse(await execute(`${INLINE_HEAD}${tail}`, true));
    if (outcome.success) return fromOutcome(outcome.data);
    // No outcome: V8 rejected the code (then nothing ran), or the page went away while it ran.
    // The dry run tells which, without running any of the agent's code.
    const dry = PageOutcome.safeParse(await inSlot(true));
    if (dry.success && dry.data.status === 'error' && dry.data.error.name === DRY_RUN) {
      throw new XipeError(
        'SCRIPT_ERROR',
        'The script produced no result: the page navigated or was closed while it ran, or the page interfered with the script.',
        { tab_id: request.tabId },
      );
    }
  } else {
    result = await inSlot(false);
  }
  // The value did not come through finish(): the code did not parse, or ran unrewritten.
  const slot = `globalThis[${JSON.stringify(global)}]`;
  const report = PageReport.safeParse(await execute(`${slot} ? ${slot}.report() : null`));
  if (!report.success) {
    throw new XipeError(
      'SCRIPT_ERROR',
      'The script produced no result and left no trace in the page: the page may have navigated or been closed while it ran.',
      { tab_id: request.tabId },
    );
  }
  if (report.data.syntax !== null) {
    // V8 parsed it as a plain script: an `await` is its first error there. acorn, which knows
    // top-level await, points at the real one.
    const parser = instrumented.ok || instrumented.location === null ? null : instrumented;
    throw scriptError(
      'syntax',
      parser === null
        ? report.data.syntax
        : { name: 'SyntaxError', message: parser.message, ...parser.location },
    );
  }
  if (report.data.error !== null) throw scriptError('throw', report.data.error);
  if (!report.data.ran) {
    const fromParser = instrumented.ok ? null : instrumented;
    throw new XipeError(
      'SCRIPT_ERROR',
      `SyntaxError: ${fromParser?.message ?? 'the script could not be parsed'}`,
      {
        kind: 'syntax',
        ...(fromParser?.location ?? {}),
      },
    );
  }
  return result;
}

async function viaScripting(request: InjectionRequest): Promise<unknown> {
  if (request.world === 'isolated') {
    throw new XipeError(
      'INJECTION_BLOCKED',
      `Running code in the isolated world needs user scripts (extensions may not eval code strings there). ${ALLOW_USER_SCRIPTS_HOWTO} Or use world "main".`,
      { tab_id: request.tabId, world: request.world, user_scripts_allowed: false },
    );
  }
  // Indirect eval runs scripts, where `await` is a syntax error: top-level await goes in as the
  // rewrite (an async function reporting to the slot `begin` just made current).
  const global = callGlobal();
  const rewritten = instrumentCompletion(request.code, `globalThis[${JSON.stringify(global)}]`);
  const code = rewritten.ok && rewritten.topLevelAwait ? rewritten.code : request.code;
  let results: { result?: unknown }[];
  try {
    results = await executeFunction({
      target: { tabId: request.tabId },
      world: 'MAIN',
      injectImmediately: true,
      func: pageRuntime,
      args: [options(0, { global, code: `${code}${SOURCE_URL_TAIL}` })],
    });
  } catch (err) {
    throw mapApiError(err, request.tabId);
  }
  const outcome = PageOutcome.safeParse(results[0]?.result);
  if (!outcome.success) {
    throw new XipeError(
      'SCRIPT_ERROR',
      'The script produced no result: the page may have navigated or been closed while it ran.',
      { tab_id: request.tabId },
    );
  }
  if (outcome.data.status === 'eval_blocked') {
    throw new XipeError(
      'INJECTION_BLOCKED',
      `This page's Content-Security-Policy forbids running code strings, and user scripts are not allowed for this extension. ${ALLOW_USER_SCRIPTS_HOWTO}`,
      { tab_id: request.tabId, csp_error: outcome.data.message, user_scripts_allowed: false },
    );
  }
  if (outcome.data.status === 'error' && outcome.data.kind === 'syntax') {
    // V8's eval SyntaxError has no position; acorn's has.
    if (!rewritten.ok && rewritten.location !== null) {
      throw scriptError('syntax', { ...outcome.data.error, ...rewritten.location });
    }
  }
  return fromOutcome(outcome.data);
}
