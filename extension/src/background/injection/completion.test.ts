import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { instrumentCompletion } from './completion.js';

/** Runs the instrumented code and returns what it stored, to compare with the real completion value. */
function capturedValue(code: string): unknown {
  const result = instrumentCompletion(code, 'globalThis.__slot');
  if (!result.ok) throw new Error(result.message);
  const context = vm.createContext({ __slot: { v: undefined } });
  vm.runInContext(`try {\n${result.code}\n} catch (e) { throw e }`, context);
  return (context.__slot as { v: unknown }).v;
}

function realValue(code: string): unknown {
  return vm.runInContext(code, vm.createContext({}));
}

describe('instrumentCompletion', () => {
  it.each([
    '1 + 2',
    '1; 2;',
    'var x = 5; x * 2',
    '1; var y;',
    '1; function f() { return 9 }',
    '1; class A {}',
    '1; let z = 3;',
    '1; if (false) 2;',
    '1; if (true) {}',
    '1; if (true) 2; else 3',
    'if (false) 1; else if (true) 2; else 3',
    'if (true) if (false) 1; else 2',
    '1; {}',
    '1; { 2; { 3 } }',
    'for (let i = 0; i < 3; i++) i * 10',
    '1; for (const k of []) k',
    'let n = 0; while (n < 4) { n++; if (n === 2) continue; n }',
    'do { 7 } while (false)',
    'L: for (let i = 0; i < 3; i++) { for (;;) { i; continue L } }',
    'L: { 4; break L; }',
    'switch (2) { case 1: "a"; case 2: "b"; case 3: "c"; break; default: "d" }',
    'try { 1 } finally { 2 }',
    'try { throw new Error("x") } catch (e) { e.message } finally { "no" }',
    '"use strict"; 5',
    '(() => { 1; return 2 })()',
    'const f = function () { 3 }; f()',
    'a = 1\nb = 2\na + b',
    'x = 1\n;[1, 2].map((v) => v * x)',
    'while (false);if (true) 8',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the script under test is a template literal
    '`t${1}`',
    '({ a: 1 }).a',
    '1, 2, 3',
    '#!/usr/bin/env node\n42',
  ])('captures the completion value of %j', (code) => {
    const expected = realValue(code.startsWith('#!') ? code.slice(code.indexOf('\n') + 1) : code);
    expect(capturedValue(code)).toEqual(expected);
  });

  it('keeps line numbers (inserts no newline)', () => {
    const code = 'if (a)\n  b;\nfor (;;)\n  c;\n';
    const result = instrumentCompletion(code, 'S');
    expect(result.ok && result.code.split('\n').length).toBe(code.split('\n').length);
  });

  it('reports a syntax error with its location', () => {
    expect(instrumentCompletion('1;\nlet x = ;', 'S')).toEqual({
      ok: false,
      message: 'Unexpected token',
      location: { line: 2, column: 9 },
    });
  });

  it('leaves `await` an identifier where a classic script allows it', () => {
    expect(capturedValue('var await = 3; await * 2')).toBe(6);
  });
});

describe('instrumentCompletion with top-level await', () => {
  /** Runs the rewrite against a slot like the page runtime's: `v` gets the promise, `fail` the throws. */
  async function run(code: string): Promise<{ value: unknown; thrown: unknown }> {
    const result = instrumentCompletion(code, 'globalThis.__slot');
    if (!result.ok) throw new Error(result.message);
    expect(result.topLevelAwait).toBe(true);
    const slot = {
      v: undefined as unknown,
      thrown: undefined as unknown,
      fail(e: unknown) {
        slot.thrown = e;
      },
    };
    const context = vm.createContext({ __slot: slot, Promise, setTimeout });
    vm.runInContext(result.code, context);
    const value = await slot.v;
    return { value, thrown: slot.thrown };
  }

  it.each([
    ['await 1', 1],
    ['const a = await Promise.resolve(20); a + 1', 21],
    ['let n = 0; for await (const x of [Promise.resolve(1), 2]) n += x; n', 3],
    ['1; if (true) { await null; 2 }', 2],
    ['await new Promise((r) => setTimeout(r, 5)); "later"', 'later'],
    ['const f = async () => 5; await f()', 5],
    ['try { await Promise.reject(new Error("x")) } catch (e) { e.message }', 'x'],
    ['#!/usr/bin/env node\nawait 7', 7],
    ['await 8 // a trailing comment', 8],
  ])('keeps the completion value of %j', async (code, expected) => {
    expect(await run(code)).toEqual({ value: expected, thrown: undefined });
  });

  it('hands a throw after an await to fail (a throw, not a rejection)', async () => {
    const { value, thrown } = await run('await 4;\nthrow new TypeError("late")');
    expect(value).toBeUndefined();
    expect(thrown).toMatchObject({ name: 'TypeError', message: 'late' });
  });

  it('lets an awaited rejection that nobody catches be thrown, with its error', async () => {
    const { thrown } = await run('await Promise.reject(new RangeError("no"))');
    expect(thrown).toMatchObject({ name: 'RangeError', message: 'no' });
  });

  it('keeps line numbers and reports syntax errors with their location', () => {
    const code = 'await 1;\nif (a)\n  b;\n';
    const result = instrumentCompletion(code, 'S');
    expect(result.ok && result.code.split('\n').length).toBe(code.split('\n').length + 1);
    expect(result.ok && result.code.split('\n')[1]).toMatch(/if \(a\)$/);
    expect(instrumentCompletion('await 1;\nlet x = ;', 'S')).toEqual({
      ok: false,
      message: 'Unexpected token',
      location: { line: 2, column: 9 },
    });
  });
});
