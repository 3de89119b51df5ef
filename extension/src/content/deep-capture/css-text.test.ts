import { describe, expect, it } from 'vitest';
import {
  analyzeStateSelector,
  parseDeclarations,
  resolveVars,
  specificity,
  splitSelectorList,
  varNames,
} from './css-text.js';

describe('splitSelectorList', () => {
  it('splits at top-level commas only', () => {
    expect(splitSelectorList('.a:hover, .b:is(.c, .d) , [data-x="1,2"]')).toEqual([
      '.a:hover',
      '.b:is(.c, .d)',
      '[data-x="1,2"]',
    ]);
  });
});

describe('analyzeStateSelector', () => {
  it('puts a state on the subject', () => {
    expect(analyzeStateSelector('.btn.primary:hover')).toMatchObject({
      base: '.btn.primary',
      states: ['hover'],
      targetPrefix: null,
      pseudo: null,
    });
  });

  it('puts a state on an ancestor compound and keeps the combinators', () => {
    expect(analyzeStateSelector('.card:hover > .body .title')).toMatchObject({
      base: '.card > .body .title',
      states: ['hover'],
      targetPrefix: '.card',
    });
  });

  it('tells focus-visible, focus-within and focus apart', () => {
    expect(analyzeStateSelector('a:focus-visible')?.states).toEqual(['focus-visible']);
    expect(analyzeStateSelector('form:focus-within input')?.states).toEqual(['focus-within']);
    expect(analyzeStateSelector('input:focus')?.states).toEqual(['focus']);
    expect(analyzeStateSelector('button:hover:active')?.states).toEqual(['hover', 'active']);
  });

  it('keeps ::before/::after as the pseudo-element and a bare state as *', () => {
    expect(analyzeStateSelector('.link:hover::after')).toMatchObject({ base: '.link', pseudo: 'after' });
    expect(analyzeStateSelector('.link:hover:before')).toMatchObject({ base: '.link', pseudo: 'before' });
    expect(analyzeStateSelector('nav :hover')).toMatchObject({ base: 'nav *', targetPrefix: null });
  });

  it('leaves out what splitting would change the meaning of', () => {
    expect(analyzeStateSelector('.a:not(:hover)')).toBeNull();
    expect(analyzeStateSelector('.a:is(:hover, :focus)')).toBeNull();
    expect(analyzeStateSelector('.a:hover .b:focus')).toBeNull();
    expect(analyzeStateSelector('input:hover::placeholder')).toBeNull();
    expect(analyzeStateSelector('.a .b')).toBeNull();
    expect(analyzeStateSelector('.hovercard')).toBeNull();
    expect(analyzeStateSelector('.x:hovered')).toBeNull();
  });

  it('does not treat escaped or quoted text as a state', () => {
    expect(analyzeStateSelector('[title=":hover"]')).toBeNull();
  });
});

describe('specificity', () => {
  it('orders ids over classes over types', () => {
    expect(specificity('#a')).toBeGreaterThan(specificity('.a.b.c'));
    expect(specificity('.a:hover')).toBeGreaterThan(specificity('.a'));
    expect(specificity('a.b')).toBeGreaterThan(specificity('.b'));
  });
});

describe('parseDeclarations', () => {
  it('reads a declaration block, keeping semicolons inside quotes and url()', () => {
    expect(parseDeclarations('color: red; background: url("a;b.png") no-repeat; --x: 1px 2px')).toEqual({
      color: 'red',
      background: 'url("a;b.png") no-repeat',
      '--x': '1px 2px',
    });
  });
});

describe('resolveVars', () => {
  const vars: Record<string, string> = { '--brand': '#123456', '--gap': 'var(--unit)', '--unit': '4px' };
  const lookup = (name: string) => vars[name] ?? '';

  it('substitutes, falls back and follows references', () => {
    expect(resolveVars('var(--brand)', lookup)).toBe('#123456');
    expect(resolveVars('calc(var(--gap) * 2)', lookup)).toBe('calc(4px * 2)');
    expect(resolveVars('var(--missing, var(--brand, red))', lookup)).toBe('#123456');
    expect(resolveVars('0 0 var(--missing, 2px) rgb(0 0 0 / 10%)', lookup)).toBe('0 0 2px rgb(0 0 0 / 10%)');
    expect(resolveVars('var(--missing)', lookup)).toBe('');
  });

  it('lists the names a value refers to', () => {
    expect(varNames('var(--a) var( --b, var(--c))')).toEqual(['--a', '--b', '--c']);
  });
});
