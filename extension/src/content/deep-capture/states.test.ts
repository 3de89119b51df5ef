// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { absolutizeUrls, type CapturedElement, collectStates, SelectorIndex } from './states.js';
import type { FlatRule, PageRules } from './stylesheets.js';

/**
 * The state extraction on a small DOM: which element a state rule styles, which captured element
 * takes the state, the order rules win in, and the values as the clone needs them.
 */

let captured: CapturedElement[];
let parentOf: Map<Element, Element>;
let root: HTMLElement;

const el = (selector: string): Element => {
  const found = document.querySelector(selector);
  if (found === null) throw new Error(`no ${selector}`);
  return found;
};
const indexOf = (selector: string) => captured.find((c) => c.el === el(selector))?.index;

beforeEach(() => {
  document.body.innerHTML = `
    <section class="area" style="--accent: #7c5cff; --unused: 1px">
      <article class="card">
        <h3 class="title">Plan</h3>
        <a class="btn primary" href="#" style="--accent: #e11d48">Buy</a>
      </article>
      <p class="note">Outside every state rule</p>
    </section>`;
  root = el('.area') as HTMLElement;
  const order = ['.area', '.card', '.title', '.btn', '.note'];
  captured = order.map((s, index) => ({ el: el(s), index }));
  parentOf = new Map([
    [el('.card'), root],
    [el('.title'), el('.card')],
    [el('.btn'), el('.card')],
    [el('.note'), root],
  ]);
});

function rules(...list: Array<[selector: string, declarations: string]>): PageRules {
  const flat: FlatRule[] = list.map(([selector, declarations], order) => ({
    selector,
    declarations,
    baseUrl: 'https://site.test/css/main.css',
    order,
  }));
  return { scopes: [{ scope: document, rules: flat }], fontFaces: [], unreadable: [] };
}

describe('collectStates', () => {
  it('puts a state rule on the element it matches, taking the state itself', () => {
    const { states } = collectStates(
      rules(['.btn:hover', 'color: red;'], ['.btn:focus-visible', 'outline: 2px solid blue;']),
      captured,
      parentOf,
      root,
    );
    expect(states.get(3)).toEqual([
      { state: 'hover', target: 3, pseudo: null, styles: { color: 'red' } },
      { state: 'focus-visible', target: 3, pseudo: null, styles: { outline: '2px solid blue' } },
    ]);
    expect(states.has(4)).toBe(false);
  });

  it('gives the state to the captured ancestor the rule names, and skips it when none was captured', () => {
    const { states } = collectStates(
      rules(['.card:hover .title', 'color: blue;'], ['.missing:hover .title', 'color: green;']),
      captured,
      parentOf,
      root,
    );
    expect(states.get(indexOf('.title') ?? -1)).toEqual([
      { state: 'hover', target: indexOf('.card'), pseudo: null, styles: { color: 'blue' } },
    ]);
  });

  it('applies rules by specificity then source order, and an !important value holds', () => {
    const { states } = collectStates(
      rules(
        ['.btn.primary:hover', 'color: green; background: black !important;'],
        ['.btn:hover', 'color: red; background: white;'],
        ['.btn:hover', 'border-color: gray;'],
      ),
      captured,
      parentOf,
      root,
    );
    expect(states.get(3)?.[0]?.styles).toEqual({
      color: 'green',
      background: 'black !important',
      'border-color': 'gray',
    });
  });

  it('keeps a pseudo-element state apart from the element state', () => {
    const { states } = collectStates(
      rules(['.btn:active::after', 'opacity: 0.5;'], ['.btn:active', 'transform: scale(0.98);']),
      captured,
      parentOf,
      root,
    );
    expect(states.get(3)).toEqual(
      expect.arrayContaining([
        { state: 'active', target: 3, pseudo: 'after', styles: { opacity: '0.5' } },
        { state: 'active', target: 3, pseudo: null, styles: { transform: 'scale(0.98)' } },
      ]),
    );
  });

  it("resolves var() on the element (its own value, not the area's), makes url()s absolute and lists the custom properties in use", () => {
    const { states, customProperties } = collectStates(
      rules(
        ['.btn:hover', 'background: var(--accent) url("../img/glow.png");'],
        ['.title', 'color: var(--accent, black);'],
        ['.nowhere', 'margin: var(--unused);'],
      ),
      captured,
      parentOf,
      root,
    );
    expect(states.get(3)?.[0]?.styles).toEqual({
      background: '#e11d48 url("https://site.test/img/glow.png")',
    });
    expect([...customProperties]).toEqual([['--accent', '#7c5cff']]);
  });
});

describe('SelectorIndex', () => {
  it('rules out a selector whose subject names a class, id or tag no captured element has', () => {
    const index = new SelectorIndex(captured.map((c) => c.el));
    expect(index.mightMatch('.card .btn.primary')).toBe(true);
    expect(index.mightMatch('article > h3')).toBe(true);
    expect(index.mightMatch('.card .price')).toBe(false);
    expect(index.mightMatch('#hero')).toBe(false);
    expect(index.mightMatch('.card table')).toBe(false);
  });
});

describe('absolutizeUrls', () => {
  it('resolves relative url()s against the stylesheet, leaving fragments and data: URLs', () => {
    const base = 'https://cdn.test/a/b.css';
    expect(absolutizeUrls("url(x.png) url('#clip') url(data:image/png;base64,AA)", base)).toBe(
      'url("https://cdn.test/a/x.png") url(\'#clip\') url(data:image/png;base64,AA)',
    );
  });
});
