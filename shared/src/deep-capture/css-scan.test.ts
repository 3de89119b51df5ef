import { describe, expect, it } from 'vitest';
import { splitTopLevel, staysInDeclaration } from './css-scan.js';

describe('splitTopLevel', () => {
  it('splits outside brackets, quotes and escapes only', () => {
    expect(splitTopLevel('a, :is(b, c), [title="x,y"], d\\,e', ',')).toEqual([
      'a',
      ':is(b, c)',
      '[title="x,y"]',
      'd\\,e',
    ]);
    expect(splitTopLevel('color: red; background: url("a;b.png");', ';')).toEqual([
      'color: red',
      'background: url("a;b.png")',
    ]);
  });
});

describe('staysInDeclaration', () => {
  it.each([
    ['rgb(0, 0, 0)', true],
    ['"a;b" url(x.png)', true],
    ['"\\"}"', true],
    ['[full-start] 1fr [full-end]', true],
    ['red; } body { background: red', false],
    ['red }', false],
    ['"unclosed', false],
    ['calc(1px', false],
    ['1px) ', false],
    ['a\\', true],
  ])('%s → %s', (value, expected) => {
    expect(staysInDeclaration(value)).toBe(expected);
  });
});
