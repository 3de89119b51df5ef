import type { InteractionState, StateStyle, StyleMap } from '#shared/deep-capture/area-capture.js';
import {
  analyzeStateSelector,
  parseDeclarations,
  resolveVars,
  splitSelectorList,
  varNames,
} from './css-text.js';
import type { PageRules, ScopeRules } from './stylesheets.js';

/**
 * What the page's stylesheets do to the captured elements in `:hover`, `:focus`,
 * `:focus-visible`, `:focus-within` and `:active`, and which custom properties their rules use.
 *
 * A state rule `.card:hover .title {…}` is split into the element it styles (matching
 * `.card .title`) and the ancestor that takes the state (matching `.card`); both must be in the
 * capture, or the clone could not express it. Declarations keep the stylesheet's own values with
 * `var()` resolved on the element and url()s made absolute. Rules are applied in specificity then
 * source order, so a later, more specific rule wins as it does in the page.
 */

export interface CapturedElement {
  el: Element;
  index: number;
}

interface Candidate {
  state: InteractionState;
  target: number;
  pseudo: 'before' | 'after' | null;
  specificity: number;
  order: number;
  declarations: Record<string, string>;
}

/** Cheap pre-check: the last compound's classes, id and tag must occur among the captured elements. */
export class SelectorIndex {
  private readonly classes = new Set<string>();
  private readonly ids = new Set<string>();
  private readonly tags = new Set<string>();

  constructor(elements: readonly Element[]) {
    for (const el of elements) {
      for (const c of Array.from(el.classList)) this.classes.add(c);
      if (el.id !== '') this.ids.add(el.id);
      this.tags.add(el.localName);
    }
  }

  mightMatch(selector: string): boolean {
    const last = selector.split(/[\s>+~]+/).pop() ?? '';
    const bare = last.replace(/\([^()]*\)/g, '').replace(/\[[^\]]*\]/g, '');
    for (const m of bare.matchAll(/\.([\w-]+)/g)) if (!this.classes.has(m[1] ?? '')) return false;
    for (const m of bare.matchAll(/#([\w-]+)/g)) if (!this.ids.has(m[1] ?? '')) return false;
    const tag = /^[a-zA-Z][\w-]*/.exec(bare)?.[0];
    return tag === undefined || this.tags.has(tag.toLowerCase());
  }
}

function safeMatches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false;
  }
}

/** Makes `url(relative)` absolute against the stylesheet that wrote it. */
export function absolutizeUrls(value: string, baseUrl: string): string {
  return value.replace(/url\(\s*(["']?)([^"')]+)\1\s*\)/g, (whole, _q: string, raw: string) => {
    if (raw.startsWith('#') || raw.startsWith('data:')) return whole;
    try {
      return `url("${new URL(raw, baseUrl).href}")`;
    } catch {
      return whole;
    }
  });
}

function closestMatching(
  el: Element,
  selector: string,
  indexOf: ReadonlyMap<Element, number>,
  parentOf: ReadonlyMap<Element, Element>,
): number | null {
  for (let a = parentOf.get(el); a !== undefined; a = parentOf.get(a)) {
    const index = indexOf.get(a);
    if (index !== undefined && safeMatches(a, selector)) return index;
  }
  return null;
}

export interface StateResult {
  states: Map<number, StateStyle[]>;
  customProperties: Map<string, string>;
}

export function collectStates(
  rules: PageRules,
  captured: readonly CapturedElement[],
  parentOf: ReadonlyMap<Element, Element>,
  root: Element,
): StateResult {
  const indexOf = new Map(captured.map((c) => [c.el, c.index] as const));
  const candidates = new Map<number, Candidate[]>();
  const usedVars = new Set<string>();
  for (const scope of rules.scopes) {
    const inScope = captured.filter((c) => c.el.getRootNode() === scope.scope);
    if (inScope.length === 0) continue;
    scanScope(scope, inScope, indexOf, parentOf, candidates, usedVars);
  }
  const states = new Map<number, StateStyle[]>();
  for (const [index, list] of candidates) states.set(index, mergeCandidates(list));
  const rootStyle = getComputedStyle(root);
  const customProperties = new Map<string, string>();
  for (const name of usedVars) {
    const value = rootStyle.getPropertyValue(name).trim();
    if (value !== '') customProperties.set(name, value);
  }
  return { states, customProperties };
}

function scanScope(
  scope: ScopeRules,
  inScope: readonly CapturedElement[],
  indexOf: ReadonlyMap<Element, number>,
  parentOf: ReadonlyMap<Element, Element>,
  out: Map<number, Candidate[]>,
  usedVars: Set<string>,
): void {
  const index = new SelectorIndex(inScope.map((c) => c.el));
  for (const rule of scope.rules) {
    const hasVars = rule.declarations.includes('var(');
    const hasState = /:(hover|focus|active)/.test(rule.selector);
    if (!hasVars && !hasState) continue;
    for (const selector of splitSelectorList(rule.selector)) {
      const state = hasState ? analyzeStateSelector(selector) : null;
      if (state === null) {
        if (hasVars && index.mightMatch(selector) && inScope.some((c) => safeMatches(c.el, selector))) {
          for (const name of varNames(rule.declarations)) usedVars.add(name);
        }
        continue;
      }
      if (!index.mightMatch(state.base)) continue;
      for (const { el, index: elIndex } of inScope) {
        if (!safeMatches(el, state.base)) continue;
        const target =
          state.targetPrefix === null ? elIndex : closestMatching(el, state.targetPrefix, indexOf, parentOf);
        if (target === null) continue;
        for (const name of varNames(rule.declarations)) usedVars.add(name);
        const style = getComputedStyle(el);
        const declarations: Record<string, string> = {};
        for (const [prop, value] of Object.entries(parseDeclarations(rule.declarations))) {
          const resolved = resolveVars(value, (n) => style.getPropertyValue(n));
          declarations[prop] = absolutizeUrls(resolved, rule.baseUrl);
        }
        const list = out.get(elIndex) ?? [];
        for (const s of state.states) {
          list.push({
            state: s,
            target,
            pseudo: state.pseudo,
            specificity: state.specificity,
            order: rule.order,
            declarations,
          });
        }
        out.set(elIndex, list);
      }
    }
  }
}

function mergeCandidates(list: Candidate[]): StateStyle[] {
  const sorted = [...list].sort((a, b) => a.specificity - b.specificity || a.order - b.order);
  const merged = new Map<string, StateStyle>();
  for (const c of sorted) {
    const key = `${c.state}|${c.target}|${c.pseudo ?? ''}`;
    const entry = merged.get(key) ?? { state: c.state, target: c.target, pseudo: c.pseudo, styles: {} };
    const styles: StyleMap = entry.styles;
    for (const [prop, value] of Object.entries(c.declarations)) {
      // `!important` beats later normal declarations; keep it marked so the clone does the same.
      if (styles[prop]?.endsWith('!important') && !value.endsWith('!important')) continue;
      styles[prop] = value;
    }
    merged.set(key, entry);
  }
  return [...merged.values()];
}
