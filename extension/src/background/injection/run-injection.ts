import { Deadlines, withDeadline } from '../../../../shared/src/deadlines.js';
import type { InjectMethod, InjectWorld } from '../../../../shared/src/index.js';
import { XipeError } from '../../../../shared/src/index.js';
import { LruCache } from '../../../../shared/src/lru-cache.js';
import { executeFunction, userScriptsNamespace } from '../../platform/browser.js';
import { type InstrumentResult, instrumentCompletion, neutralizeHashbang } from './completion.js';
import { NOT_SENT, PageChannels } from './page-channel.js';
import {
  DRY_RUN,
  INJECTED_SOURCE_URL,
  KEPT_CONFIG,
  KEPT_MAX_CHARS,
  NO_RUNTIME,
  NOT_KEPT,
  type PageError,
  PageOutcome,
  PageReport,
  pageRuntime,
  RUNTIME_SOURCE_URL,
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
 * - userScripts (works under any page CSP): one script, the same text on every call for the same
 *   code. It opens a slot in the page runtime (`pageRuntime`; on a page that has none yet it runs
 *   nothing and goes again after the runtime's setup), then runs the agent's code, rewritten by
 *   `instrumentCompletion` so its completion value lands in the slot, inside try/catch, ending
 *   with `slot.finish()` — our own outcome (a promise of it when the value is a thenable, which
 *   Chrome awaits), which Chrome returns. Code that runs the same as a function body (`keepable`)
 *   goes in as that function instead, which the page runtime keeps and calls (`keep`); a repeat
 *   in that tab is a short script naming it (`call`), so the page neither receives nor compiles
 *   the text again; NOT_KEPT or NO_RUNTIME (nothing ran) sends the definition again. Once a
 *   function is kept in a tab's MAIN world the tab is linked (page-channel.ts), and a repeat goes
 *   as a message on that link instead of a script injection, with the same answers. A script
 *   that does not parse never runs; acorn reports it before injecting. When no outcome comes back
 *   (V8 rejected what acorn accepted, or the page went away), a dry run tells which: three
 *   scripts, the runtime, a slot whose `error` listener catches a SyntaxError, and the same script
 *   in its script form, whose first statement then stops it before any of the agent's code
 *   runs. If acorn cannot parse code V8 accepts (newer syntax), the code runs unrewritten
 *   (try/catch only, after the runtime and a slot, as three scripts) and its value is Chrome's
 *   own conversion.
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

/** The wrapper puts the code on the line after `try {`, so page line numbers are one higher. */
const BODY_LINE_OFFSET = 1;

/**
 * The page-side registry of per-call slots (see `pageRuntime`). Random per service-worker
 * lifetime, not per call: the injected code names it, and code that is identical from call to
 * call is compiled once by the page's V8.
 */
const randomHex = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
const REGISTRY = `__xipeInject_${randomHex()}`;
const CURRENT_SLOT = `globalThis.${REGISTRY}.current`;
/** Installs the registry in the page (or returns at once): the same text every call. */
const RUNTIME_SETUP = `(${pageRuntime.toString()})(${JSON.stringify(REGISTRY)}, null, null, ${BODY_LINE_OFFSET}, ${JSON.stringify(INJECTED_SOURCE_URL)}, ${JSON.stringify(KEPT_CONFIG)});\n//# sourceURL=${RUNTIME_SOURCE_URL}`;
/** The one-script form's first line: NO_RUNTIME on a page without the registry, else a slot opened. */
const OPEN = `if (!globalThis.${REGISTRY}) ${JSON.stringify(NO_RUNTIME)}; else { try { globalThis.${REGISTRY}.open(${BODY_LINE_OFFSET});`;
const SOURCE_URL_TAIL = `\n//# sourceURL=${INJECTED_SOURCE_URL}`;
let lastCallId = 0;

/** What the agent's code becomes for userScripts: the rewrite (or why it failed) and the text to inject. */
interface PreparedCode {
  instrumented: InstrumentResult;
  /** The script form: runs the code as a script, every call. */
  body: string;
  /** For code that may run as a function body: the page keeps it, and a call names it. */
  kept: KeptScript | null;
}

/**
 * The kept form of a script: `define` (the code as a function the registry keeps and calls; its
 * lines are the script form's) and `call` (a short script calling it again). `where`: the worlds
 * of the tabs where this worker defined it (`world:tabId`), so a call there tries `call` first (a
 * navigation or an eviction since costs one short round trip: NO_RUNTIME or NOT_KEPT, nothing
 * ran).
 */
interface KeptScript {
  /** The id the page keeps the function by. */
  id: string;
  define: string;
  call: string;
  where: Set<string>;
}
let lastKeptId = 0;

/**
 * Agents run the same files again and again: the rewrite of recent scripts is kept (keyed by the
 * code itself; at most 16 scripts and 8 Mi characters of code plus rewrite, nothing over that).
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
  const instrumented = instrumentCompletion(code, CURRENT_SLOT);
  // A throw from OPEN (a dry run) is the catch's, like one from the code.
  const body = instrumented.ok
    ? `${OPEN}\n${instrumented.code}\n} catch (e) { ${CURRENT_SLOT}.fail(e) }\n${CURRENT_SLOT}.finish(); }${SOURCE_URL_TAIL}`
    : `undefined; try {\n${neutralizeHashbang(code)}\n} catch (e) { ${CURRENT_SLOT}.fail(e); undefined } finally { ${CURRENT_SLOT}.ran = true }${SOURCE_URL_TAIL}`;
  let kept: KeptScript | null = null;
  if (instrumented.ok && instrumented.keepable && code.length <= KEPT_MAX_CHARS) {
    const keptId = `k${++lastKeptId}`;
    const id = JSON.stringify(keptId);
    kept = {
      id: keptId,
      define: `if (!globalThis.${REGISTRY}) ${JSON.stringify(NO_RUNTIME)}; else globalThis.${REGISTRY}.keep(${id}, ${code.length}, function () { try { globalThis.${REGISTRY}.open(${BODY_LINE_OFFSET});\n${instrumented.code}\n} catch (e) { ${CURRENT_SLOT}.fail(e) }\nreturn ${CURRENT_SLOT}.finish(); });${SOURCE_URL_TAIL}`,
      call: `globalThis.${REGISTRY} ? globalThis.${REGISTRY}.call(${id}) : ${JSON.stringify(NO_RUNTIME)};\n//# sourceURL=${RUNTIME_SOURCE_URL}`,
      where: new Set(),
    };
  }
  const result = { instrumented, body, kept };
  prepared.set(code, result, code.length + body.length + (kept?.define.length ?? 0));
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
  lastCallId += 1;
  const callId = String(lastCallId);
  const world = request.world === 'main' ? 'MAIN' : 'USER_SCRIPT';
  const { instrumented, body, kept } = prepare(request.code);

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

  // Three scripts (the runtime, this call's slot made the registry's `current`, the code): for
  // code that runs unrewritten, and for a dry run, which the registry's `dry` stops at OPEN.
  const inSlot = (dry: boolean): Promise<unknown> =>
    execute(
      [
        RUNTIME_SETUP,
        `globalThis.${REGISTRY}.begin(${JSON.stringify(callId)}, ${BODY_LINE_OFFSET}, true);${dry ? ` globalThis.${REGISTRY}.dry = true;` : ''}`,
        body,
      ],
      !dry,
    );
  let result: unknown;
  if (instrumented.ok) {
    const answer =
      kept === null ? await runScript(execute, body) : await runKept(execute, kept, world, request.tabId);
    const outcome = PageOutcome.safeParse(answer);
    if (outcome.success) return fromOutcome(outcome.data);
    // No outcome: V8 rejected the code (then nothing ran), or the page went away while it ran.
    // The dry run tells which, without running any of the agent's code.
    const dry = PageOutcome.safeParse(await inSlot(true));
    if (dry.success && dry.data.status === 'error' && dry.data.error.name === DRY_RUN) {
      throw new XipeError(
        'SCRIPT_ERROR',
        'The script produced no result: the page navigated or was closed while it ran, or the script removed the page runtime it reports into.',
        { tab_id: request.tabId },
      );
    }
  } else {
    result = await inSlot(false);
  }
  // The value did not come through finish(): the code did not parse, or ran unrewritten.
  const slot = `globalThis.${REGISTRY}?.calls[${JSON.stringify(callId)}]`;
  const report = PageReport.safeParse(
    await execute(
      `if (globalThis.${REGISTRY}) globalThis.${REGISTRY}.dry = false;\n${slot} ? ${slot}.report() : null`,
    ),
  );
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

type Execute = (code: string | readonly string[], first?: boolean) => Promise<unknown>;

/** The script form: one script, or the runtime and it on a page without the registry. */
async function runScript(execute: Execute, body: string): Promise<unknown> {
  const answer = await execute(body, true);
  return answer === NO_RUNTIME ? execute([RUNTIME_SETUP, body]) : answer;
}

/**
 * Tabs whose page runtime takes calls of kept functions over a port (page-channel.ts). The link
 * event's name is its own secret: the registry's name is a global the page can read.
 */
const channels = new PageChannels(`xipe-link-${randomHex()}`, `${REGISTRY}:calls`);

/**
 * The kept form: a call where this worker defined the function (over the tab's channel when it
 * has one, else a short script), else (or when the page answers that it has no registry or no
 * such function, having run nothing) the definition, which runs it; after NO_RUNTIME it goes with
 * the runtime at once. A MAIN-world tab where a function is now kept gets a channel for the next
 * calls.
 */
async function runKept(
  execute: Execute,
  kept: KeptScript,
  world: 'MAIN' | 'USER_SCRIPT',
  tabId: number,
): Promise<unknown> {
  const place = `${world}:${tabId}`;
  let missed: unknown = null;
  if (kept.where.has(place)) {
    const channel = world === 'MAIN' ? channels.get(tabId) : undefined;
    missed = channel === undefined ? NOT_SENT : await channel.call(kept.id);
    if (missed === NOT_SENT) missed = await execute(kept.call, true);
    if (missed !== NO_RUNTIME && missed !== NOT_KEPT) return missed;
    kept.where.delete(place);
  }
  const answer =
    missed === NO_RUNTIME
      ? await execute([RUNTIME_SETUP, kept.define])
      : await runScript(execute, kept.define);
  // Only a hint (closed tabs leave their ids): bounded.
  if (kept.where.size >= 64) kept.where.clear();
  kept.where.add(place);
  if (world === 'MAIN' && answer !== NO_RUNTIME) {
    channels.link(tabId, (eventName) =>
      execute(`globalThis.${REGISTRY} ? globalThis.${REGISTRY}.link(${JSON.stringify(eventName)}) : false`),
    );
  }
  return answer;
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
  const rewritten = instrumentCompletion(request.code, CURRENT_SLOT);
  const code = rewritten.ok && rewritten.topLevelAwait ? rewritten.code : request.code;
  let results: { result?: unknown }[];
  try {
    results = await executeFunction({
      target: { tabId: request.tabId },
      world: 'MAIN',
      injectImmediately: true,
      func: pageRuntime,
      args: [REGISTRY, String(++lastCallId), `${code}${SOURCE_URL_TAIL}`, 0, INJECTED_SOURCE_URL, null],
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

function fromOutcome(outcome: PageOutcome): unknown {
  if (outcome.status === 'ok') return outcome.value;
  if (outcome.status === 'error') throw scriptError(outcome.kind, outcome.error);
  throw new XipeError('INTERNAL_ERROR', `unexpected outcome: ${outcome.message}`);
}

function scriptError(kind: 'throw' | 'rejection' | 'syntax', error: PageError): XipeError {
  const where = error.line !== undefined ? ` (line ${error.line}, column ${error.column ?? 0})` : '';
  const what = kind === 'rejection' ? 'The promise the script returned was rejected: ' : '';
  const label = error.name === 'Thrown value' ? 'Uncaught' : error.name;
  return new XipeError('SCRIPT_ERROR', `${what}${label}: ${error.message}${where}`, {
    kind,
    name: error.name,
    exception_message: error.message,
    ...(error.line !== undefined ? { line: error.line, column: error.column } : {}),
    ...(error.stack !== undefined ? { stack: error.stack } : {}),
  });
}

/** Chrome's API errors are plain strings; turn the ones we know into instructions. */
export function mapApiError(err: unknown, tabId: number): XipeError {
  if (err instanceof XipeError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/No tab with id/i.test(message)) {
    return new XipeError(
      'TAB_NOT_FOUND',
      `Tab ${tabId} no longer exists. Call list_tabs for the open tabs.`,
      {
        tab_id: tabId,
      },
    );
  }
  if (/Cannot access|cannot be scripted|Missing host permission|permission to access/i.test(message)) {
    return new XipeError('INJECTION_BLOCKED', `The browser does not allow scripting this page: ${message}`, {
      tab_id: tabId,
    });
  }
  if (/Frame with ID \d+ (was removed|is showing error page)|navigat|closed/i.test(message)) {
    return new XipeError(
      'SCRIPT_ERROR',
      `The page navigated, showed an error or closed while the script ran: ${message}`,
      { tab_id: tabId },
    );
  }
  return new XipeError('INTERNAL_ERROR', `Injection failed: ${message}`, { tab_id: tabId });
}
