/**
 * The page's style rules as the engine needs them: flattened (conditional rules that apply now,
 * `@layer`, `@import`, nesting with `&` resolved), each with the base URL its relative url()s
 * resolve against, per tree scope (the document and each open shadow root).
 *
 * Cross-origin stylesheets served without CORS cannot be read by the page (`cssRules` throws).
 * The seam for them is `SheetFetcher`: given the sheet's URL it returns its text, which the
 * engine parses into a constructed stylesheet it never attaches. In a content script the
 * extension can fetch that text with its host permissions; without a fetcher the sheet is only
 * reported as unreadable.
 */

export type SheetFetcher = (href: string) => Promise<string | null>;

export interface FlatRule {
  /** Selector with nesting resolved, e.g. `:is(.card):hover .title`. */
  selector: string;
  /** The declaration block as the browser serialises it. */
  declarations: string;
  baseUrl: string;
  order: number;
}

export interface FontFaceSource {
  family: string;
  weight: string;
  style: string;
  unicodeRange: string;
  src: string;
  baseUrl: string;
}

export interface ScopeRules {
  /** The document, or an open shadow root whose elements these rules style. */
  scope: Document | ShadowRoot;
  rules: FlatRule[];
}

export interface PageRules {
  scopes: ScopeRules[];
  fontFaces: FontFaceSource[];
  unreadable: string[];
}

const MAX_RULES = 50_000;

function sheetsOf(scope: Document | ShadowRoot): CSSStyleSheet[] {
  return [...Array.from(scope.styleSheets), ...scope.adoptedStyleSheets];
}

function readRules(sheet: CSSStyleSheet): CSSRuleList | null {
  try {
    return sheet.cssRules;
  } catch {
    return null;
  }
}

class RuleFlattener {
  readonly rules: FlatRule[] = [];
  readonly fontFaces: FontFaceSource[] = [];

  constructor(private readonly win: Window) {}

  addSheet(sheet: CSSStyleSheet, rules: CSSRuleList, fallbackBase: string): void {
    if (sheet.disabled) return;
    const media = sheet.media?.mediaText ?? '';
    if (media !== '' && !this.win.matchMedia(media).matches) return;
    this.addList(rules, sheet.href ?? fallbackBase, null);
  }

  private addList(list: CSSRuleList, baseUrl: string, parentSelector: string | null): void {
    for (const rule of Array.from(list)) {
      if (this.rules.length >= MAX_RULES) return;
      if (rule instanceof CSSStyleRule) {
        const selector = resolveNesting(rule.selectorText, parentSelector);
        this.rules.push({
          selector,
          declarations: rule.style.cssText,
          baseUrl,
          order: this.rules.length,
        });
        if (rule.cssRules.length > 0) this.addList(rule.cssRules, baseUrl, selector);
      } else if (rule instanceof CSSMediaRule) {
        if (this.win.matchMedia(rule.media.mediaText).matches)
          this.addList(rule.cssRules, baseUrl, parentSelector);
      } else if (rule instanceof CSSSupportsRule) {
        if (CSS.supports(rule.conditionText)) this.addList(rule.cssRules, baseUrl, parentSelector);
      } else if (rule instanceof CSSImportRule) {
        const imported = rule.styleSheet;
        const inner = imported === null ? null : readRules(imported);
        const media = rule.media.mediaText;
        if (imported !== null && inner !== null && (media === '' || this.win.matchMedia(media).matches)) {
          this.addList(inner, imported.href ?? baseUrl, null);
        }
      } else if (rule instanceof CSSFontFaceRule) {
        const s = rule.style;
        this.fontFaces.push({
          family: s.getPropertyValue('font-family'),
          weight: s.getPropertyValue('font-weight'),
          style: s.getPropertyValue('font-style'),
          unicodeRange: s.getPropertyValue('unicode-range'),
          src: s.getPropertyValue('src'),
          baseUrl,
        });
      } else if (rule instanceof CSSGroupingRule) {
        // @layer blocks, @container (assumed to apply), @scope, @starting-style…
        if (rule.constructor.name !== 'CSSStartingStyleRule')
          this.addList(rule.cssRules, baseUrl, parentSelector);
      }
    }
  }
}

/** `&:hover` under `.card` → `:is(.card):hover`; a nested selector without `&` is a descendant. */
export function resolveNesting(selector: string, parent: string | null): string {
  if (parent === null) return selector;
  const wrapped = `:is(${parent})`;
  return selector
    .split(',')
    .map((part) => (part.includes('&') ? part.replaceAll('&', wrapped) : `${wrapped} ${part.trim()}`))
    .join(', ');
}

/** Reads every rule that applies now, fetching unreadable cross-origin sheets through `fetchSheet`. */
export async function readPageRules(
  doc: Document,
  shadowRoots: readonly ShadowRoot[],
  fetchSheet: SheetFetcher | null,
): Promise<PageRules> {
  const win = doc.defaultView ?? window;
  const unreadable: string[] = [];
  const fontFaces: FontFaceSource[] = [];
  const scopes: ScopeRules[] = [];
  for (const scope of [doc, ...shadowRoots]) {
    const flattener = new RuleFlattener(win);
    for (const sheet of sheetsOf(scope)) {
      let rules = readRules(sheet);
      if (rules === null && sheet.href !== null) {
        const text = fetchSheet === null ? null : await fetchSheet(sheet.href).catch(() => null);
        if (text !== null) {
          const constructed = new CSSStyleSheet({ baseURL: sheet.href });
          constructed.replaceSync(text);
          rules = constructed.cssRules;
        }
      }
      if (rules === null) {
        if (sheet.href !== null) unreadable.push(sheet.href);
        continue;
      }
      flattener.addSheet(sheet, rules, doc.baseURI);
    }
    scopes.push({ scope, rules: flattener.rules });
    fontFaces.push(...flattener.fontFaces);
  }
  return { scopes, fontFaces, unreadable };
}
