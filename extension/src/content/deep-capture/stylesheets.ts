/**
 * The page's style rules as the engine needs them: flattened (conditional rules that apply now,
 * `@layer`, `@import`, nesting with `&` resolved), each with the base URL its relative url()s
 * resolve against, per tree scope (the document and each open shadow root).
 *
 * Cross-origin stylesheets served without CORS cannot be read by the page (`cssRules` throws),
 * nor by a content script. The extension's worker can fetch their text with its host permissions:
 * it lists them before the capture (background/deep-capture/page-functions.ts, `listUnreadableSheets`),
 * fetches them (sheets.ts there) and hands the texts in as a `SheetSource`; the engine parses each
 * into a constructed stylesheet it never attaches. A sheet without text is reported as unreadable.
 */

/** The text of a cross-origin sheet the worker fetched, by its URL; null when it has none. */
export type SheetSource = (href: string) => string | null;

function parseSheet(href: string, source: SheetSource | null): CSSRuleList | null {
  const text = source?.(href) ?? null;
  if (text === null) return null;
  const constructed = new CSSStyleSheet({ baseURL: href });
  // Constructed sheets ignore @import; a fetched sheet's own imports are not followed.
  constructed.replaceSync(text);
  return constructed.cssRules;
}

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
  readonly unreadable: string[] = [];

  constructor(
    private readonly win: Window,
    private readonly source: SheetSource | null,
  ) {}

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
        const href = imported?.href ?? null;
        const inner =
          imported === null
            ? null
            : (readRules(imported) ?? (href === null ? null : parseSheet(href, this.source)));
        const media = rule.media.mediaText;
        if (inner === null && href !== null) this.unreadable.push(href);
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

/** Reads every rule that applies now, cross-origin sheets from `source`. */
export function readPageRules(
  doc: Document,
  shadowRoots: readonly ShadowRoot[],
  source: SheetSource | null,
): PageRules {
  const win = doc.defaultView ?? window;
  const unreadable: string[] = [];
  const fontFaces: FontFaceSource[] = [];
  const scopes: ScopeRules[] = [];
  for (const scope of [doc, ...shadowRoots]) {
    const flattener = new RuleFlattener(win, source);
    for (const sheet of sheetsOf(scope)) {
      const rules = readRules(sheet) ?? (sheet.href === null ? null : parseSheet(sheet.href, source));
      if (rules === null) {
        if (sheet.href !== null) unreadable.push(sheet.href);
        continue;
      }
      flattener.addSheet(sheet, rules, doc.baseURI);
    }
    scopes.push({ scope, rules: flattener.rules });
    fontFaces.push(...flattener.fontFaces);
    unreadable.push(...flattener.unreadable);
  }
  return { scopes, fontFaces, unreadable };
}
