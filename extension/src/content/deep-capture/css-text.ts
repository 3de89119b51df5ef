import type { InteractionState } from '#shared/deep-capture/area-capture.js';
import { scanCss, splitTopLevel } from '#shared/deep-capture/css-scan.js';

/**
 * Small, pure readers of CSS text for the state extraction: selector lists, the states in a
 * selector, declaration blocks and `var()` references, on the shared structure reader
 * (css-scan.ts: brackets, quotes and escapes respected, nothing validated — the browser already
 * parsed the stylesheet; these read its serialisation).
 */

export function splitSelectorList(selectorText: string): string[] {
  return splitTopLevel(selectorText, ',');
}

/** `color: red; background: url("a;b.png")` → `{color: "red", background: "url(\"a;b.png\")"}`. */
export function parseDeclarations(cssText: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const declaration of splitTopLevel(cssText, ';')) {
    const colon = declaration.indexOf(':');
    if (colon <= 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (name !== '' && value !== '') out[name] = value;
  }
  return out;
}

const STATES: readonly InteractionState[] = ['focus-visible', 'focus-within', 'hover', 'focus', 'active'];

export interface StateSelector {
  /** The selector with its states (and pseudo-element) removed: what the element must match. */
  base: string;
  states: InteractionState[];
  /**
   * Compounds up to the one carrying the states, states removed: the ancestor that takes the
   * state must match it (`.card:hover .title` → `.card`). Null when the state is on the subject.
   */
  targetPrefix: string | null;
  pseudo: 'before' | 'after' | null;
  specificity: number;
}

interface Compound {
  /** Combinator before the compound (`' '`, `'>'`, `'+'`, `'~'`, or `''` for the first). */
  combinator: string;
  text: string;
}

function splitCompounds(selector: string): Compound[] {
  const out: Compound[] = [];
  let current = '';
  let combinator = '';
  let pendingSpace = false;
  scanCss(selector, (ch, _i, depth, literal) => {
    if (!literal && depth === 0 && (ch === ' ' || ch === '\n' || ch === '\t')) {
      pendingSpace = current !== '';
      return undefined;
    }
    if (!literal && depth === 0 && (ch === '>' || ch === '+' || ch === '~')) {
      if (current !== '') out.push({ combinator, text: current });
      current = '';
      combinator = ch;
      pendingSpace = false;
      return undefined;
    }
    if (pendingSpace) {
      out.push({ combinator, text: current });
      current = '';
      combinator = ' ';
      pendingSpace = false;
    }
    current += ch;
    return undefined;
  });
  if (current !== '') out.push({ combinator, text: current });
  return out;
}

function joinCompounds(compounds: readonly Compound[]): string {
  return compounds
    .map((c, i) => (i === 0 ? c.text : c.combinator === ' ' ? ` ${c.text}` : ` ${c.combinator} ${c.text}`))
    .join('');
}

/** Removes top-level `:state` pseudo-classes from one compound, returning what was removed. */
function stripStates(compound: string): { text: string; states: InteractionState[]; nested: boolean } {
  const states: InteractionState[] = [];
  let nested = false;
  let text = '';
  let depth = 0;
  for (let i = 0; i < compound.length; i++) {
    const ch = compound[i] ?? '';
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    if (ch === ':' && compound[i + 1] !== ':' && compound[i - 1] !== ':') {
      const state = STATES.find((s) => {
        const after = compound[i + 1 + s.length] ?? '';
        return compound.startsWith(s, i + 1) && !/[\w-]/.test(after);
      });
      if (state !== undefined) {
        if (depth > 0) nested = true;
        else {
          states.push(state);
          i += state.length;
          continue;
        }
      }
    }
    text += ch;
  }
  return { text: text === '' ? '*' : text, states, nested };
}

const PSEUDO_ELEMENT = /::?(before|after)$/;

/**
 * Reads one selector of a rule: null unless it applies a state this capture records (states
 * inside `:not()`/`:is()`, states on two compounds, and pseudo-elements other than
 * `::before`/`::after` are left out: their meaning would not survive being split).
 */
export function analyzeStateSelector(selector: string): StateSelector | null {
  if (!/:(hover|focus|active)/.test(selector)) return null;
  const compounds = splitCompounds(selector.trim());
  const last = compounds[compounds.length - 1];
  if (last === undefined) return null;
  let pseudo: 'before' | 'after' | null = null;
  const pseudoMatch = PSEUDO_ELEMENT.exec(last.text);
  if (pseudoMatch !== null) {
    pseudo = pseudoMatch[1] === 'before' ? 'before' : 'after';
    last.text = last.text.slice(0, pseudoMatch.index) || '*';
  }
  if (compounds.some((c) => c.text.includes('::'))) return null;
  let targetIndex = -1;
  let states: InteractionState[] = [];
  const stripped: Compound[] = [];
  for (const [i, compound] of compounds.entries()) {
    const result = stripStates(compound.text);
    if (result.nested) return null;
    if (result.states.length > 0) {
      if (targetIndex !== -1) return null;
      targetIndex = i;
      states = result.states;
    }
    stripped.push({ combinator: compound.combinator, text: result.text });
  }
  if (targetIndex === -1) return null;
  const isSubject = targetIndex === compounds.length - 1;
  return {
    base: joinCompounds(stripped),
    states,
    targetPrefix: isSubject ? null : joinCompounds(stripped.slice(0, targetIndex + 1)),
    pseudo,
    specificity: specificity(selector),
  };
}

/**
 * Selector specificity as one number (ids × 10⁶ + classes × 10³ + types), for ordering rules
 * that set the same property. Functional pseudo-classes count as one class: close enough to
 * order the rules of one component.
 */
export function specificity(selector: string): number {
  const noArgs = selector.replace(/\([^()]*\)/g, '');
  const ids = (noArgs.match(/#[\w-]+/g) ?? []).length;
  const classes = (noArgs.match(/\.[\w-]+|\[[^\]]*\]|:(?!:)[\w-]+/g) ?? []).length;
  const types = (noArgs.match(/(^|[\s>+~])[a-zA-Z][\w-]*|::[\w-]+/g) ?? []).length;
  return ids * 1_000_000 + classes * 1_000 + types;
}

/**
 * Substitutes `var(--name, fallback)` with `lookup(--name)`, the fallback when it is empty, and
 * nested references in either. Unresolvable references become the empty string, as in CSS
 * (the declaration is then invalid at computed-value time, which the clone reproduces).
 */
export function resolveVars(value: string, lookup: (name: string) => string): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const at = value.indexOf('var(', i);
    if (at === -1) {
      out += value.slice(i);
      break;
    }
    out += value.slice(i, at);
    let depth = 0;
    let end = at + 3;
    for (; end < value.length; end++) {
      if (value[end] === '(') depth++;
      else if (value[end] === ')') {
        depth--;
        if (depth === 0) break;
      }
    }
    const inner = value.slice(at + 4, end);
    const comma = splitTopLevel(inner, ',');
    const name = (comma[0] ?? '').trim();
    const fallbackAt = inner.indexOf(',');
    const fallback = fallbackAt === -1 ? '' : inner.slice(fallbackAt + 1).trim();
    const own = lookup(name).trim();
    out += own !== '' ? resolveVars(own, lookup) : resolveVars(fallback, lookup);
    i = end + 1;
  }
  return out;
}

/** Custom property names a value refers to. */
export function varNames(value: string): string[] {
  return Array.from(value.matchAll(/var\(\s*(--[\w-]+)/g), (m) => m[1] ?? '').filter((n) => n !== '');
}
