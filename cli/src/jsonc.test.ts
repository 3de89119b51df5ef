import { describe, expect, it } from 'vitest';
import { JsoncError, jsonEqual, parseJsonc, setJsoncProperty } from './jsonc.js';

describe('parseJsonc', () => {
  it('reads comments, trailing commas and strings that look like comments', () => {
    const text = `// lead
{
  /* block */ "a": "http://x/*y*/", // tail
  "b": [1, 2,], "c": {"d": null, "e": -1.5e3,},
}`;
    expect(parseJsonc(text)).toEqual({ a: 'http://x/*y*/', b: [1, 2], c: { d: null, e: -1500 } });
  });

  it.each(['{', '{"a": }', '{"a": 1 "b": 2}', "{'a': 1}", '{"a": 1} x', '/* open {}', '{"a": tru}'])(
    'rejects %j with a position',
    (text) => {
      expect(() => parseJsonc(text)).toThrow(JsoncError);
    },
  );

  it('keeps __proto__ as a plain key', () => {
    const value = parseJsonc('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('setJsoncProperty', () => {
  const entry = { command: '/n', args: ['a b'] };

  it('creates a document from nothing', () => {
    const out = setJsoncProperty('', ['mcpServers', 'x'], entry);
    expect(JSON.parse(out)).toEqual({ mcpServers: { x: entry } });
  });

  it('adds to an existing object, keeping comments and unknown keys byte for byte', () => {
    const text = `{
  // my servers
  "mcpServers": {
    "other": { "command": "uvx" } // keep me
  },
  "unknown": [1, 2] /* and me */
}
`;
    const out = setJsoncProperty(text, ['mcpServers', 'x'], entry);
    expect(out).toContain('// my servers');
    expect(out).toContain('"other": { "command": "uvx" }, // keep me');
    expect(out).toContain('"unknown": [1, 2] /* and me */');
    expect(parseJsonc(out)).toEqual({ mcpServers: { other: { command: 'uvx' }, x: entry }, unknown: [1, 2] });
    expect(out).toContain('\n    "x": {\n      "command": "/n",');
  });

  it('inserts a missing parent and respects trailing commas', () => {
    const text = '{\n\t"$schema": "s",\n}\n';
    const out = setJsoncProperty(text, ['mcp', 'x'], { enabled: true });
    expect(out).toBe('{\n\t"$schema": "s",\n\t"mcp": {\n\t\t"x": {\n\t\t\t"enabled": true\n\t\t}\n\t},\n}\n');
  });

  it('handles one-line objects and empty objects', () => {
    expect(parseJsonc(setJsoncProperty('{"a": 1}', ['b'], 2))).toEqual({ a: 1, b: 2 });
    expect(parseJsonc(setJsoncProperty('{"a": {}}', ['a', 'b'], 2))).toEqual({ a: { b: 2 } });
    expect(parseJsonc(setJsoncProperty('{"a": { /* c */ }}', ['a', 'b'], 2))).toEqual({ a: { b: 2 } });
  });

  it('replaces an existing entry and is idempotent', () => {
    const text = '{\n  "mcpServers": {\n    "x": {"command": "old"},\n    "y": 1\n  }\n}\n';
    const once = setJsoncProperty(text, ['mcpServers', 'x'], entry);
    expect(parseJsonc(once)).toEqual({ mcpServers: { x: entry, y: 1 } });
    expect(setJsoncProperty(once, ['mcpServers', 'x'], entry)).toBe(once);
  });

  it('keeps CRLF line endings', () => {
    const out = setJsoncProperty('{\r\n  "a": 1\r\n}\r\n', ['b'], { c: 1 });
    expect(out.replaceAll('\r\n', '')).not.toContain('\n');
    expect(parseJsonc(out)).toEqual({ a: 1, b: { c: 1 } });
  });

  it('keeps a trailing line comment with the member it follows, with or without a trailing comma', () => {
    const out = setJsoncProperty('{\n  "s": {\n    "a": 1, // about a\n  }\n}\n', ['s', 'x'], 2);
    expect(out).toBe('{\n  "s": {\n    "a": 1, // about a\n    "x": 2,\n  }\n}\n');
    const tabs = setJsoncProperty('{\n\t"s": {\n\t\t"a": 1 // about a\n\t}\n}\n', ['s', 'x'], 2);
    expect(tabs).toBe('{\n\t"s": {\n\t\t"a": 1, // about a\n\t\t"x": 2\n\t}\n}\n');
  });

  it('lays out an empty object it fills, as if it had been written that way', () => {
    const out = setJsoncProperty('{\n  "$schema": "s",\n  "mcp": {}\n}\n', ['mcp', 'x'], { enabled: true });
    expect(out).toBe('{\n  "$schema": "s",\n  "mcp": {\n    "x": {\n      "enabled": true\n    }\n  }\n}\n');
  });

  it('refuses when a step of the path is not an object', () => {
    expect(() => setJsoncProperty('{"mcpServers": []}', ['mcpServers', 'x'], 1)).toThrow(/not an object/);
  });

  it('compares JSON values structurally', () => {
    expect(jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
  });
});
