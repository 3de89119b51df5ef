import { describe, expect, it } from 'vitest';
import { INJECTED_SOURCE_URL, PageOutcome, pageRuntime } from './page-runtime.js';

/** The eval path of the in-page runtime, run in Node (the userScripts path is covered end to end). */
async function run(code: string): Promise<PageOutcome> {
  const registry = `__test_${Math.random().toString(16).slice(2)}`;
  const outcome = await pageRuntime(
    registry,
    '1',
    `${code}\n//# sourceURL=${INJECTED_SOURCE_URL}`,
    0,
    INJECTED_SOURCE_URL,
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
    expect(pageRuntime(name, null, null, 1, INJECTED_SOURCE_URL)).toBeUndefined();
    const registry = (globalThis as unknown as Record<string, Registry | undefined>)[name];
    if (registry === undefined) throw new Error('no registry after the setup');
    return { name, registry };
  };

  it('installs the registry once, not enumerable', () => {
    const { name, registry } = install();
    expect(Object.keys(globalThis)).not.toContain(name);
    pageRuntime(name, null, null, 1, INJECTED_SOURCE_URL);
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
