import { parse } from 'acorn';
import { type AnyNode, asNode, childNodes, FUNCTION_NODES, nodeList } from './ast.js';

/**
 * Makes a script's completion value observable without `eval` (which a strict page CSP forbids in
 * the MAIN world). Every expression statement that can produce the script's completion value is
 * rewritten to also store its value in the slot's `v` (e.g. `globalThis.__slot.v`); compound statements
 * (if, loops, switch, try, with, labelled) first reset it to undefined, as the spec's UpdateEmpty
 * does. Functions and `finally` blocks are not entered: their values never become the completion
 * value. Only text is inserted, never a newline, so line numbers stay those of the original code.
 *
 * The script's own value then flows through our code, which can await a promise and see it reject
 * — Chrome's userScripts.execute would turn a rejection into a bare null.
 *
 * Top-level `await` (as in DevTools' console and `Runtime.evaluate` in REPL mode): a script that
 * only parses with it runs as the body of an async arrow function called at once, whose promise
 * (of the completion value, kept in a local) becomes the slot's `v`; a throw inside is handed to
 * the slot's `fail` so it stays a throw, not a rejection. Its declarations are then local to the
 * script, as in any function.
 */

export interface SourceLocation {
  line: number;
  column: number;
}

export type InstrumentResult =
  | {
      ok: true;
      code: string;
      topLevelAwait: boolean;
    }
  | { ok: false; message: string; location: SourceLocation | null };

/** Names inside the async wrapper; unlikely enough that the agent's code never declares them. */
const TLA_SLOT = '__xipeSlot';
const TLA_VALUE = '__xipeValue';

/** Whether an `await` (or `for await`) sits in the script itself, outside every function. */
function hasTopLevelAwait(node: AnyNode): boolean {
  if (node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await === true)) return true;
  if (FUNCTION_NODES.has(node.type)) return false;
  return childNodes(node).some(hasTopLevelAwait);
}

type Parsed =
  | { ok: true; program: AnyNode }
  | { ok: false; message: string; location: SourceLocation | null };

function parseScript(code: string, allowAwait: boolean): Parsed {
  try {
    const program = parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowHashBang: true,
      allowAwaitOutsideFunction: allowAwait,
      locations: false,
    }) as unknown as AnyNode;
    return { ok: true, program };
  } catch (err) {
    const loc = (err as { loc?: { line?: unknown; column?: unknown } }).loc;
    const location =
      loc !== undefined && typeof loc.line === 'number' && typeof loc.column === 'number'
        ? { line: loc.line, column: loc.column + 1 }
        : null;
    const message = err instanceof Error ? err.message.replace(/ \(\d+:\d+\)$/, '') : String(err);
    return { ok: false, message, location };
  }
}

interface Insertion {
  pos: number;
  text: string;
  /** Closers sort before openers at the same offset. */
  closer: boolean;
}

const COMPOUND = new Set([
  'IfStatement',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
  'SwitchStatement',
  'TryStatement',
  'WithStatement',
  'LabeledStatement',
]);

/** A hashbang is legal only at the very start of a script; wrapped code turns it into a comment. */
export function neutralizeHashbang(code: string): string {
  return code.startsWith('#!') ? `//${code.slice(2)}` : code;
}

/**
 * `slot` is an expression for an object with `v` (receives the completion value) and `fail(error)`
 * (a throw inside a top-level-await script).
 */
export function instrumentCompletion(source: string, slot: string): InstrumentResult {
  const code = neutralizeHashbang(source);
  // A plain script first: there `await` may still be an identifier (`var await = 1`).
  let parsed = parseScript(code, false);
  let topLevelAwait = false;
  if (!parsed.ok) {
    const withAwait = parseScript(code, true);
    topLevelAwait = withAwait.ok && hasTopLevelAwait(withAwait.program);
    if (topLevelAwait || !withAwait.ok) parsed = withAwait;
  }
  if (!parsed.ok) return parsed;
  const program = parsed.program;
  const target = topLevelAwait ? TLA_VALUE : `${slot}.v`;

  const insertions: Insertion[] = [];
  const reset = `${target}=void 0;`;

  const visit = (stmt: AnyNode, wrapCompound: boolean): void => {
    if (stmt.type === 'ExpressionStatement') {
      const expr = asNode(stmt.expression);
      if (expr === null) return;
      insertions.push({ pos: expr.start, text: `${target}=(`, closer: false });
      insertions.push({ pos: expr.end, text: ')', closer: true });
      return;
    }
    if (stmt.type === 'BlockStatement') {
      for (const child of nodeList(stmt.body)) visit(child, true);
      return;
    }
    if (!COMPOUND.has(stmt.type)) return; // declarations, empty, debugger, break, continue, throw
    // A label must stay directly on its loop (`continue L`), so the reset goes before the label
    // and the labelled statement itself is not wrapped again.
    if (wrapCompound) insertions.push({ pos: stmt.start, text: `{${reset}`, closer: false });
    switch (stmt.type) {
      case 'IfStatement':
        for (const branch of [stmt.consequent, stmt.alternate]) {
          const node = asNode(branch);
          if (node !== null) visit(node, true);
        }
        break;
      case 'SwitchStatement':
        for (const switchCase of nodeList(stmt.cases)) {
          for (const child of nodeList(switchCase.consequent)) visit(child, true);
        }
        break;
      case 'TryStatement': {
        const block = asNode(stmt.block);
        if (block !== null) visit(block, true);
        const handlerBody = asNode(asNode(stmt.handler)?.body);
        if (handlerBody !== null) visit(handlerBody, true);
        break; // a finally block's normal completion value is discarded
      }
      case 'LabeledStatement': {
        const body = asNode(stmt.body);
        if (body !== null) visit(body, false);
        break;
      }
      default: {
        const body = asNode(stmt.body); // loops and with
        if (body !== null) visit(body, true);
      }
    }
    if (wrapCompound) insertions.push({ pos: stmt.end, text: '}', closer: true });
  };

  for (const stmt of nodeList(program.body)) visit(stmt, true);

  // Stable sort: same offset → closers (in post-order) before openers (in pre-order).
  const ordered = insertions
    .map((insertion, seq) => ({ insertion, seq }))
    .sort(
      (a, b) =>
        a.insertion.pos - b.insertion.pos ||
        Number(b.insertion.closer) - Number(a.insertion.closer) ||
        a.seq - b.seq,
    );
  let out = '';
  let last = 0;
  for (const { insertion } of ordered) {
    out += code.slice(last, insertion.pos) + insertion.text;
    last = insertion.pos;
  }
  out += code.slice(last);
  if (!topLevelAwait) return { ok: true, code: out, topLevelAwait };
  // One line: the wrapper's head sits before the code's first character, its tail after a newline
  // (a trailing line comment must not swallow it), so the code keeps its line numbers.
  const head = `${slot}.v=(async(${TLA_SLOT})=>{let ${TLA_VALUE};try{`;
  const tail = `\n}catch(e){${TLA_SLOT}.fail(e);return}return ${TLA_VALUE}})(${slot});`;
  return { ok: true, code: `${head}${out}${tail}`, topLevelAwait };
}
