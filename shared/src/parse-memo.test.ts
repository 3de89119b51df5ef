import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { mayFit, ParseMemo } from './parse-memo.js';

const Params = z.strictObject({
  code_sha256: z.string().length(4),
  world: z.enum(['main', 'isolated']).default('main'),
});

describe('ParseMemo', () => {
  it('parses an input seen before only once, and gives the same frozen result', () => {
    const memo = new ParseMemo(Params);
    const parse = vi.spyOn(Params, 'safeParse');
    const first = memo.safeParse({ code_sha256: 'abcd' });
    const again = memo.safeParse(JSON.parse('{"code_sha256":"abcd"}'));
    expect(first).toEqual({ success: true, data: { code_sha256: 'abcd', world: 'main' } });
    expect(again).toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(Object.isFrozen(first.data)).toBe(true);
    expect(() => {
      (first.data as { world: string }).world = 'isolated';
    }).toThrow(TypeError);
    parse.mockRestore();
  });

  it('parses failures every time and reports their issues', () => {
    const memo = new ParseMemo(Params);
    const parse = vi.spyOn(Params, 'safeParse');
    for (let i = 0; i < 2; i++) {
      const result = memo.safeParse({ code_sha256: 'abcd', world: 'page' });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['world']);
    }
    expect(parse).toHaveBeenCalledTimes(2);
    parse.mockRestore();
  });

  it('does not keep inputs over its key size, nor more than its entries (least recently used goes)', () => {
    const memo = new ParseMemo(z.object({ s: z.string() }), 2, 20);
    const parse = vi.spyOn(memo.schema, 'safeParse');
    memo.safeParse({ s: 'x'.repeat(30) });
    memo.safeParse({ s: 'x'.repeat(30) });
    expect(parse).toHaveBeenCalledTimes(2);
    memo.safeParse({ s: 'a' });
    memo.safeParse({ s: 'b' });
    memo.safeParse({ s: 'a' }); // a is now the most recent
    memo.safeParse({ s: 'c' }); // b goes
    parse.mockClear();
    memo.safeParse({ s: 'a' });
    memo.safeParse({ s: 'c' });
    expect(parse).toHaveBeenCalledTimes(0);
    memo.safeParse({ s: 'b' });
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockRestore();
  });

  it('parses inputs with no JSON text (a bigint) without keeping them', () => {
    const memo = new ParseMemo(z.bigint());
    expect(memo.safeParse(5n)).toEqual({ success: true, data: 5n });
  });

  it('does not turn a large payload into text: it is parsed as it is, never kept', () => {
    const memo = new ParseMemo(z.object({ data: z.string() }), 32, 2048);
    const stringify = vi.spyOn(JSON, 'stringify');
    const big = { data: 'x'.repeat(1024 * 1024) };
    expect(memo.safeParse(big).success).toBe(true);
    expect(memo.safeParse(big).success).toBe(true);
    expect(stringify.mock.calls.filter(([value]) => value === big)).toEqual([]);
    stringify.mockRestore();
  });
});

describe('mayFit', () => {
  it('is false only when the JSON text is surely longer than the limit', () => {
    const samples: unknown[] = [
      null,
      7,
      true,
      'abc',
      [],
      {},
      [1, 'two', null, { three: [3] }],
      { code_sha256: 'a'.repeat(64), world: 'main', target: { url_contains: '/bench' }, timeout_ms: 30000 },
      { nested: [[[]], {}, ''], ключ: 'значение' },
    ];
    for (const value of samples) {
      const length = (JSON.stringify(value) ?? '').length;
      expect(mayFit(value, length)).toBe(true);
      expect(mayFit(value, length + 10)).toBe(true);
    }
    expect(mayFit('x'.repeat(3000), 2048)).toBe(false);
    expect(mayFit({ rows: new Array(5000).fill(0) }, 2048)).toBe(false);
    expect(mayFit(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])), 2048)).toBe(
      false,
    );
  });
});
