import { describe, expect, it } from 'vitest';
import { INJECTED_SOURCE_URL, PageOutcome, pageRuntime } from './page-runtime.js';

/** The eval path of the in-page runtime, run in Node (the userScripts path is covered end to end). */
async function run(code: string): Promise<PageOutcome> {
  const slot = `__test_${Math.random().toString(16).slice(2)}`;
  const outcome = await pageRuntime(
    slot,
    `${code}\n//# sourceURL=${INJECTED_SOURCE_URL}`,
    0,
    INJECTED_SOURCE_URL,
  );
  expect(Object.hasOwn(globalThis, slot)).toBe(false); // the slot is always removed
  return PageOutcome.parse(outcome);
}

describe('pageRuntime (eval path)', () => {
  it('returns the completion value, awaiting promises', async () => {
    expect(await run('var q = 20;\nq + 1')).toEqual({ status: 'ok', value: 21 });
    expect(await run('Promise.resolve({ a: [1, 2] })')).toEqual({ status: 'ok', value: { a: [1, 2] } });
    expect(await run('undefined')).toEqual({ status: 'ok', value: null });
  });

  it('converts values that are not JSON', async () => {
    const outcome = await run(
      '({ n: NaN, b: 5n, s: Symbol("t"), f: function g() {}, m: new Map([[1, 2]]), u: undefined, d: new Date(0), c: (() => { const o = {}; o.o = o; return o })() })',
    );
    expect(outcome).toEqual({
      status: 'ok',
      value: {
        n: 'NaN',
        b: '5n',
        s: 'Symbol(t)',
        f: '[Function g]',
        m: [[1, 2]],
        d: '1970-01-01T00:00:00.000Z',
        c: { o: '[Circular]' },
      },
    });
  });

  it('reports a throw with its line, a rejection and a syntax error', async () => {
    expect(await run('1;\nthrow new RangeError("r")')).toMatchObject({
      status: 'error',
      kind: 'throw',
      error: { name: 'RangeError', message: 'r', line: 2 },
    });
    expect(await run('Promise.reject(new Error("no"))')).toMatchObject({
      status: 'error',
      kind: 'rejection',
      error: { message: 'no' },
    });
    expect(await run('let = ;')).toMatchObject({
      status: 'error',
      kind: 'syntax',
      error: { name: 'SyntaxError' },
    });
    expect(await run('JSON.parse("{")')).toMatchObject({
      status: 'error',
      kind: 'throw',
      error: { name: 'SyntaxError' },
    });
  });
});
