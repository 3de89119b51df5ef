import { describe, expect, it } from 'vitest';
import { instrumentCompletion } from './completion.js';

const keepableCode = (code: string): boolean => {
  const result = instrumentCompletion(code, 'globalThis.__slot');
  if (!result.ok) throw new Error(result.message);
  return result.keepable;
};

describe('keepable (may the page keep the code as a function body?)', () => {
  it.each([
    '1 + 2',
    '(() => { const data = "x"; return data.length; })();',
    'const a = 1; let b; class C {}; a',
    '(() => { var x = 1; function g() {} return x })()',
    'const f = function () { var x; return arguments.length };\nf(1)',
    'class A { static { var s = 1 } m() { return arguments } }',
    'const t = await 1;\nvar v = 2;\nfunction h() {}\nt + v',
    'document.querySelectorAll("a").length',
  ])('keeps %j', (code) => {
    expect(keepableCode(code)).toBe(true);
  });

  it.each([
    'var x = 1',
    'for (var i = 0; i < 2; i++) i',
    'function f() {}\nf()',
    'if (true) { function g() {} }',
    'try { 1 } catch { var c }',
    'arguments',
    '(() => arguments)()',
    'eval("var leaked = 1")',
    '(() => eval("1"))()',
    'await 1;\narguments',
    'o.arguments',
  ])('sends %j as a script every call', (code) => {
    expect(keepableCode(code)).toBe(false);
  });
});

it('walks a call with more arguments than a spread may take', () => {
  expect(keepableCode(`f(${'0,'.repeat(200_000)}0)`)).toBe(true);
});
