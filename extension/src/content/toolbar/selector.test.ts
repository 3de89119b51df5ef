import { describe, expect, it } from 'vitest';
import { cssEscape, looksGenerated, type SelectorElement, uniqueSelector } from './selector.js';

// A tiny DOM and a matcher for the selector grammar the generator emits (compound selectors of
// tag, #id, .class, [attr="v"], :nth-of-type(n), joined by " > "). Enough to check uniqueness
// and that the selector resolves back to the element; the real querySelectorAll runs in e2e.
class FakeElement implements SelectorElement {
  readonly children: FakeElement[] = [];
  parentElement: FakeElement | null = null;
  constructor(
    readonly tagName: string,
    private readonly attrs: Record<string, string> = {},
  ) {}
  get id(): string {
    return this.attrs.id ?? '';
  }
  getAttribute(name: string): string | null {
    return this.attrs[name] ?? null;
  }
  add(...kids: FakeElement[]): this {
    for (const k of kids) {
      k.parentElement = this;
      this.children.push(k);
    }
    return this;
  }
}

const h = (tag: string, attrs: Record<string, string> = {}, ...kids: FakeElement[]) =>
  new FakeElement(tag.toUpperCase(), attrs).add(...kids);

function cssUnescape(s: string): string {
  return s
    .replace(/\\([0-9a-f]{1,6}) ?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/\\(.)/g, '$1');
}

function matchesCompound(el: FakeElement, compound: string): boolean {
  const re =
    /^([a-z][a-z0-9-]*)?((?:#(?:\\.|[^.#[:\\])+|\.(?:\\.|[^.#[:\\])+|\[[a-z-]+="(?:\\.|[^"\\])*"\])*)(?::nth-of-type\((\d+)\))?$/i;
  const m = re.exec(compound);
  if (!m) throw new Error(`unsupported selector part ${compound}`);
  const [, tag, rest = '', nth] = m;
  if (tag && el.tagName.toLowerCase() !== tag) return false;
  for (const part of rest.match(/#(?:\\.|[^.#[:\\])+|\.(?:\\.|[^.#[:\\])+|\[[a-z-]+="(?:\\.|[^"\\])*"\]/gi) ??
    []) {
    if (part.startsWith('#') && el.id !== cssUnescape(part.slice(1))) return false;
    if (
      part.startsWith('.') &&
      !(el.getAttribute('class') ?? '').split(/\s+/).includes(cssUnescape(part.slice(1)))
    )
      return false;
    if (part.startsWith('[')) {
      const am = /^\[([a-z-]+)="(.*)"\]$/i.exec(part);
      if (!am?.[1] || el.getAttribute(am[1]) !== (am[2] ?? '').replace(/\\(.)/g, '$1')) return false;
    }
  }
  if (nth) {
    const sibs = el.parentElement?.children.filter((s) => s.tagName === el.tagName) ?? [el];
    if (sibs.indexOf(el) + 1 !== Number(nth)) return false;
  }
  return true;
}

function matches(el: FakeElement, selector: string): boolean {
  const parts = selector.split(' > ');
  let node: FakeElement | null = el;
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i];
    if (!node || part === undefined || !matchesCompound(node, part)) return false;
    node = node.parentElement;
  }
  return true;
}

function all(root: FakeElement): FakeElement[] {
  return [root, ...root.children.flatMap(all)];
}

function resolverFor(root: FakeElement) {
  return (selector: string, el: SelectorElement) => {
    const hits = all(root).filter((e) => matches(e, selector));
    return hits.length === 1 && hits[0] === el;
  };
}

function expectUnique(root: FakeElement, el: FakeElement): string {
  const sel = uniqueSelector(el, resolverFor(root));
  const hits = all(root).filter((e) => matches(e, sel));
  expect(hits).toEqual([el]);
  return sel;
}

describe('uniqueSelector', () => {
  it('prefers a stable id', () => {
    const target = h('button', { id: 'buy' });
    const doc = h('html', {}, h('body', {}, h('main', {}, target)));
    expect(expectUnique(doc, target)).toBe('#buy');
  });

  it('skips generated ids and uses data-testid', () => {
    const target = h('button', { id: ':r3:', 'data-testid': 'checkout' });
    const doc = h('html', {}, h('body', {}, target));
    expect(expectUnique(doc, target)).toBe('[data-testid="checkout"]');
  });

  it('uses a stable class when it is unique, ignoring hashed ones', () => {
    const target = h('div', { class: 'css-1x2y3z hero' });
    const doc = h('html', {}, h('body', {}, h('div', { class: 'card' }), target));
    expect(expectUnique(doc, target)).toBe('div.hero');
  });

  it('falls back to an nth-of-type path that resolves to exactly the element', () => {
    const items = [h('li'), h('li'), h('li')];
    const other = h('ul', {}, h('li'), h('li'));
    const doc = h('html', {}, h('body', {}, other, h('ul', {}, ...items)));
    const sel = expectUnique(doc, items[1] as FakeElement);
    expect(sel).toContain(':nth-of-type(2)');
    expect(sel).not.toContain('nth-child');
  });

  it('anchors a path at the nearest ancestor id', () => {
    const target = h('span');
    const doc = h(
      'html',
      {},
      h(
        'body',
        {},
        h('section', { id: 'pricing' }, h('p', {}, h('span'), target)),
        h('p', {}, h('span'), h('span')),
      ),
    );
    expect(expectUnique(doc, target)).toBe('#pricing > p > span:nth-of-type(2)');
  });

  it('prefers a class path to positions when a class is unique under its parent', () => {
    const target = h('a', { class: 'btn btn-primary' });
    const doc = h(
      'html',
      {},
      h(
        'body',
        {},
        h('header', {}, h('a', { class: 'btn btn-primary' })),
        h('div', { class: 'actions' }, target, h('a', { class: 'btn btn-ghost' })),
      ),
    );
    expect(expectUnique(doc, target)).toBe('div.actions > a.btn-primary');
  });

  it('escapes ids that CSS would misread', () => {
    const target = h('div', { id: '1st.item' });
    const doc = h('html', {}, h('body', {}, target));
    expect(expectUnique(doc, target)).toBe('#\\31 st\\.item');
  });

  it('stays unique among identical siblings at every depth', () => {
    const mk = () => h('div', { class: 'row' }, h('div', { class: 'cell' }), h('div', { class: 'cell' }));
    const rows = [mk(), mk(), mk()];
    const doc = h('html', {}, h('body', {}, ...rows));
    for (const row of rows) for (const cell of row.children) expectUnique(doc, cell);
  });
});

describe('helpers', () => {
  it('escapes like CSS.escape', () => {
    expect(cssEscape('a b')).toBe('a\\ b');
    expect(cssEscape('-1x')).toBe('-\\31 x');
    expect(cssEscape('-')).toBe('\\-');
    expect(cssEscape('é_ok-1')).toBe('é_ok-1');
  });
  it('detects generated tokens', () => {
    for (const t of [
      ':r1:',
      'css-1x2y3z',
      'Button_root__3xK9a',
      'item-123456',
      'hover:bg-red',
      'sc-aXbYc1',
    ]) {
      expect(looksGenerated(t)).toBe(true);
    }
    for (const t of ['hero', 'btn-primary', 'nav__item', 'card', 'col-6'])
      expect(looksGenerated(t)).toBe(false);
  });
});
