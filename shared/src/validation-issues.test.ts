import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  describeValue,
  describeZodIssues,
  formatZodError,
  makeIssue,
  summarizeIssues,
} from './validation-issues.js';

function messages(schema: z.ZodType, input: unknown): string[] {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a failure');
  return describeZodIssues(parsed.error.issues, input).map((i) => i.message);
}

describe('describeZodIssues', () => {
  it('derives the expectation from zod defaults, with what came', () => {
    const schema = z.strictObject({
      name: z.string().min(1),
      tags: z.array(z.string()).max(2),
      size: z.number().int().positive(),
      kind: z.enum(['a', 'b']),
      url: z.url(),
      code: z.string().regex(/^x\d$/),
    });
    expect(
      messages(schema, {
        name: '',
        tags: ['a', 'b', 'c'],
        size: 0,
        kind: 'c',
        url: 'no',
        code: 'y',
        extra: 1,
      }),
    ).toEqual([
      'name: expected a non-empty string, got ""',
      'tags: expected an array of at most 2 items, got an array of 3 items',
      'size: expected a number > 0, got 0',
      'kind: expected one of "a", "b", got "c"',
      'url: expected an absolute URL, got "no"',
      'code: expected a string matching /^x\\d$/, got "y"',
      '(root): expected only the documented keys, got unknown key "extra"',
    ]);
  });

  it('uses a schema message as the expectation', () => {
    expect(messages(z.object({ id: z.string().regex(/^c-\d+$/, 'an id like "c-1"') }), { id: 3 })).toEqual([
      'id: expected a string, got 3',
    ]);
    expect(messages(z.object({ id: z.string().regex(/^c-\d+$/, 'an id like "c-1"') }), { id: 'x' })).toEqual([
      'id: expected an id like "c-1", got "x"',
    ]);
  });

  it('names the types a union accepts, or follows the option the value was meant to be', () => {
    const union = z.object({ v: z.union([z.array(z.number()), z.record(z.string(), z.number())]) });
    expect(messages(union, { v: 'x' })).toEqual(['v: expected an array or an object, got "x"']);
    expect(messages(union, { v: [1, 'two'] })).toEqual(['v.1: expected a number, got "two"']);
  });

  it('reads received values by path, missing ones as "nothing"', () => {
    const schema = z.object({ a: z.object({ b: z.array(z.object({ c: z.boolean() })) }) });
    expect(messages(schema, { a: { b: [{ c: true }, {}] } })).toEqual([
      'a.b.1.c: expected true or false, got nothing',
    ]);
  });

  it('lets a custom issue say what came', () => {
    const schema = z.object({}).superRefine((_v, ctx) => {
      ctx.addIssue({ code: 'custom', message: 'something', params: { received: 'nothing useful' } });
    });
    expect(messages(schema, {})).toEqual(['(root): expected something, got nothing useful']);
    expect(formatZodError(schema.safeParse({}).error ?? new z.ZodError([]), {})).toBe(
      '(root): expected something, got nothing useful',
    );
  });
});

describe('describeValue', () => {
  it.each([
    [undefined, 'nothing'],
    [null, 'null'],
    ['12px', '"12px"'],
    [0, '0'],
    [false, 'false'],
    [[], 'an empty array'],
    [[1], 'an array of 1 item'],
    [{}, 'an empty object'],
    [{ a: 1, b: 2 }, 'an object with keys "a", "b"'],
    [{ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }, 'an object with keys "a", "b", "c", "d", "e", …'],
  ])('describes %j as %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });

  it('cuts long strings and says how long they were', () => {
    expect(describeValue('x'.repeat(100))).toBe(`"${'x'.repeat(60)}"… (100 characters)`);
  });
});

describe('summarizeIssues and makeIssue', () => {
  it('spells out five issues and counts the rest', () => {
    const issues = Array.from({ length: 7 }, (_, i) => makeIssue(`f${i}`, 'a string', i));
    expect(summarizeIssues(issues)).toBe(
      'f0: expected a string, got 0; f1: expected a string, got 1; f2: expected a string, got 2; ' +
        'f3: expected a string, got 3; f4: expected a string, got 4 (and 2 more, see details.issues)',
    );
  });

  it('adds why a value is wrong when its description cannot show it', () => {
    expect(makeIssue('shot', 'a PNG', 'base64:R0lG', 'is not a PNG image (bad signature)').message).toBe(
      'shot: expected a PNG, got "base64:R0lG", which is not a PNG image (bad signature)',
    );
  });
});
