import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  DRY_RUN,
  INJECTED_SOURCE_URL,
  PageOutcome,
  pageRuntime,
  type RuntimeOptions,
} from './page-runtime.js';

const options = (rest: Partial<RuntimeOptions> = {}): RuntimeOptions => ({
  global: null,
  lineOffset: 0,
  sourceUrl: INJECTED_SOURCE_URL,
  listen: false,
  dry: false,
  code: null,
  ...rest,
});

/** The eval path of the in-page runtime, run in Node (the userScripts path is covered end to end). */
async function run(code: string): Promise<PageOutcome> {
  const global = `__test_${Math.random().toString(16).slice(2)}`;
  const outcome = await pageRuntime(
    options({ global, code: `${code}\n//# sourceURL=${INJECTED_SOURCE_URL}` }),
  );
  expect(Object.getOwnPropertyNames(globalThis)).not.toContain(global); // gone once the call is over
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

describe('pageRuntime (userScripts path: one fresh script per call)', () => {
  /** The worker's one-script form: the runtime in a block-scoped constant, then the code. */
  const inline = (code: string): string => {
    const start = '{ const __slot = ';
    const offset = `${start}(${pageRuntime.toString()})(${JSON.stringify(options())})`.split('\n').length;
    const head = `${start}(${pageRuntime.toString()})(${JSON.stringify(options({ lineOffset: offset }))}); try {`;
    return `${head}\n${code}\n} catch (e) { __slot.fail(e) }\n__slot.finish(); }`;
  };
  const inject = (text: string): unknown => vm.runInThisContext(text, { filename: INJECTED_SOURCE_URL });

  it('runs the code and leaves no global of its own, before or after', async () => {
    const before = Object.getOwnPropertyNames(globalThis);
    let during: string[] = [];
    (globalThis as Record<string, unknown>).__probe = () => {
      during = Object.getOwnPropertyNames(globalThis);
    };
    expect(inject(inline('__probe(); __slot.v = 20 + 1'))).toEqual({ status: 'ok', value: 21 });
    expect(await inject(inline('__slot.v = Promise.resolve([1, 2])'))).toEqual({
      status: 'ok',
      value: [1, 2],
    });
    delete (globalThis as Record<string, unknown>).__probe;
    expect(during.filter((name) => !before.includes(name))).toEqual(['__probe']);
    expect(Object.getOwnPropertyNames(globalThis)).toEqual(before);
  });

  it("reports the agent's line, not the runtime's, for a throw", () => {
    const outcome = inject(inline('1;\nthrow new RangeError("r")')) as PageOutcome;
    expect(outcome).toMatchObject({
      status: 'error',
      kind: 'throw',
      error: { name: 'RangeError', message: 'r', line: 2, column: 7 },
    });
  });

  it('under a per-call global: a dry run stops before the code, a report disposes of it', () => {
    const global = `__test_${Math.random().toString(16).slice(2)}`;
    const slot = pageRuntime(options({ global, lineOffset: 1, dry: true })) as {
      open(): unknown;
      report(): unknown;
    };
    const enumerable = Object.keys(globalThis);
    expect(enumerable).not.toContain(global);
    expect((globalThis as Record<string, unknown>)[global]).toBe(slot);
    expect(() => slot.open()).toThrow(expect.objectContaining({ name: DRY_RUN }));
    expect(slot.open()).toBe(slot); // only once
    expect(slot.report()).toEqual({ ran: false, error: null, syntax: null });
    expect(Object.getOwnPropertyNames(globalThis)).not.toContain(global);
  });
});
