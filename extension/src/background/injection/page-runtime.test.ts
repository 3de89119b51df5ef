import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  INJECTED_SOURCE_URL,
  KEPT_CONFIG,
  NOT_KEPT,
  PageOutcome,
  pageRuntime,
  RUNTIME_SOURCE_URL,
} from './page-runtime.js';

/** The eval path of the in-page runtime, run in Node (the userScripts path is covered end to end). */
async function run(code: string): Promise<PageOutcome> {
  const registry = `__test_${Math.random().toString(16).slice(2)}`;
  const outcome = await pageRuntime(
    registry,
    '1',
    `${code}\n//# sourceURL=${INJECTED_SOURCE_URL}`,
    0,
    INJECTED_SOURCE_URL,
    null,
  );
  const calls = (globalThis as unknown as Record<string, { calls: object }>)[registry]?.calls;
  expect(calls).toEqual({}); // the slot is always removed
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

describe('pageRuntime (userScripts path: setup, begin, then the code reports into registry.current)', () => {
  type Slot = { v: unknown; fail(e: unknown): void; finish(): unknown; report(): unknown };
  type Registry = {
    current: Slot | null;
    calls: Record<string, Slot>;
    begin(id: string, offset: number, listen: boolean): Slot;
  };
  const install = (): { name: string; registry: Registry } => {
    const name = `__test_${Math.random().toString(16).slice(2)}`;
    expect(pageRuntime(name, null, null, 1, INJECTED_SOURCE_URL, KEPT_CONFIG)).toBeUndefined();
    const registry = (globalThis as unknown as Record<string, Registry | undefined>)[name];
    if (registry === undefined) throw new Error('no registry after the setup');
    return { name, registry };
  };

  it('installs the registry once, not enumerable', () => {
    const { name, registry } = install();
    expect(Object.keys(globalThis)).not.toContain(name);
    pageRuntime(name, null, null, 1, INJECTED_SOURCE_URL, KEPT_CONFIG);
    expect((globalThis as unknown as Record<string, unknown>)[name]).toBe(registry);
  });

  it('gives each call its own slot, finishing synchronously unless the value is a thenable', async () => {
    const { registry } = install();
    const first = registry.begin('1', 1, false);
    expect(registry.current).toBe(first);
    first.v = Promise.resolve('one');
    // A second call starts while the first is still awaiting its value.
    const second = registry.begin('2', 1, false);
    const pending = first.finish();
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ status: 'ok', value: 'one' });
    expect(registry.current).toBe(second); // finishing the first leaves the second alone
    second.v = 2;
    expect(second.finish()).toEqual({ status: 'ok', value: 2 });
    expect(registry.calls).toEqual({});
    expect(registry.current).toBeNull();
  });

  it('reports a throw, a rejection and an unfinished run', async () => {
    const { registry } = install();
    const thrown = registry.begin('1', 1, false);
    thrown.fail(new TypeError('bad'));
    expect(thrown.finish()).toMatchObject({
      status: 'error',
      kind: 'throw',
      error: { name: 'TypeError', message: 'bad' },
    });
    const rejected = registry.begin('2', 1, false);
    rejected.v = Promise.reject(new Error('no'));
    expect(await rejected.finish()).toMatchObject({
      status: 'error',
      kind: 'rejection',
      error: { message: 'no' },
    });
    registry.begin('3', 1, false);
    expect(registry.calls['3']?.report()).toEqual({ ran: false, error: null, syntax: null });
    expect(registry.calls).toEqual({});
  });
});

describe('pageRuntime (kept functions)', () => {
  type Registry = { keptIds(): string[]; call(id: string): unknown };
  /** The runtime as the worker injects it: its own script, named by RUNTIME_SOURCE_URL. */
  const install = (config = KEPT_CONFIG): { name: string; registry: Registry } => {
    const name = `__test_${Math.random().toString(16).slice(2)}`;
    const setup = `(${pageRuntime.toString()})(${JSON.stringify(name)}, null, null, 1, ${JSON.stringify(INJECTED_SOURCE_URL)}, ${JSON.stringify(config)})`;
    vm.runInThisContext(setup, { filename: RUNTIME_SOURCE_URL });
    const registry = (globalThis as unknown as Record<string, Registry | undefined>)[name];
    if (registry === undefined) throw new Error('no registry after the setup');
    return { name, registry };
  };
  /** Injects a script (named like the worker's) and returns its completion value. */
  const inject = (text: string, filename = INJECTED_SOURCE_URL): unknown =>
    vm.runInThisContext(text, { filename });
  const reg = (name: string): string => `globalThis.${name}`;
  /** The worker's script form and kept form of `code` (the agent's code from line 2). */
  const scriptForm = (name: string, code: string): string =>
    `{ try { ${reg(name)}.open(1);\n${code}\n} catch (e) { ${reg(name)}.current.fail(e) }\n${reg(name)}.current.finish(); }`;
  const define = (name: string, id: string, code: string): string =>
    `${reg(name)}.keep(${JSON.stringify(id)}, ${code.length}, function () { try { ${reg(name)}.open(1);\n${code}\n} catch (e) { ${reg(name)}.current.fail(e) }\nreturn ${reg(name)}.current.finish(); });`;
  const call = (name: string, id: string): unknown =>
    inject(`${reg(name)}.call(${JSON.stringify(id)})`, RUNTIME_SOURCE_URL);

  it('keeps a function, runs it when defined and when called, and answers NOT_KEPT for others', () => {
    const { name, registry } = install();
    const code = `${reg(name)}.current.v = (globalThis.__keptRuns = (globalThis.__keptRuns ?? 0) + 1)`;
    expect(inject(define(name, 'k1', code))).toEqual({ status: 'ok', value: 1 });
    expect(call(name, 'k1')).toEqual({ status: 'ok', value: 2 });
    expect(call(name, 'k2')).toBe(NOT_KEPT);
    expect(registry.keptIds()).toEqual(['k1']);
    delete (globalThis as Record<string, unknown>).__keptRuns;
  });

  it('keeps at most maxFunctions and maxChars, dropping the least recently used, never the newest', () => {
    const { name, registry } = install({ ...KEPT_CONFIG, maxFunctions: 2, maxChars: 100 });
    const code = (n: number): string => `${reg(name)}.current.v = ${n}`;
    inject(define(name, 'a', code(1)));
    inject(define(name, 'b', code(2)));
    expect(call(name, 'a')).toEqual({ status: 'ok', value: 1 }); // a is now the most recent
    inject(define(name, 'c', code(3)));
    expect(registry.keptIds()).toEqual(['a', 'c']);
    inject(define(name, 'big', `${code(4)} /* ${'x'.repeat(200)} */`));
    expect(registry.keptIds()).toEqual(['big']);
  });

  it('reports the same error, line and stack as the script form', () => {
    const { name } = install();
    // `var` keeps the first in its script form (its `keptProbe` is a global for good); `let`, as
    // long, may be kept. Same columns.
    const body = (kind: string) => `${kind} keptProbe = () => { throw new Error("deep") };\nkeptProbe()`;
    const asScript = inject(scriptForm(name, body('var'))) as PageOutcome;
    const defined = inject(define(name, 'k', body('let'))) as PageOutcome;
    const called = call(name, 'k') as PageOutcome;
    expect(asScript).toMatchObject({ status: 'error', kind: 'throw', error: { message: 'deep', line: 1 } });
    if (asScript.status !== 'error') throw new Error('unreachable');
    // In a page the injected script is the bottom of the stack; here Node's frames follow it.
    const { stack, ...error } = asScript.error;
    const injectedFrames = stack
      ?.split('\n')
      .filter((line) => !/^\s+at /.test(line) || line.includes('x-ipe-'));
    expect(injectedFrames).toEqual([
      'Error: deep',
      '    at keptProbe (x-ipe-inject.js:2:31)',
      '    at x-ipe-inject.js:3:1',
    ]);
    const expected = { ...asScript, error: { ...error, stack: injectedFrames?.join('\n') } };
    expect(defined).toEqual(expected);
    expect(called).toEqual(expected);
  });
});
