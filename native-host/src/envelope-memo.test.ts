import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../shared/src/envelopes.js';
import { EnvelopeMemo } from './envelope-memo.js';

const bytes = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');
const request = (id: unknown, params: unknown = { code_sha256: 'ab', target: { url_contains: '/a' } }) => ({
  type: 'request',
  id,
  command: 'inject_script',
  params,
  timeout_ms: 30_000,
});

describe('EnvelopeMemo: an envelope parsed before is known again under another id', () => {
  it('gives back the remembered envelope with the new id, and nothing for other bytes', () => {
    const memo = new EnvelopeMemo(true);
    expect(memo.lookup(bytes(request(1)))).toBeNull();
    memo.remember(bytes(request(1)), request(1) as Envelope);
    expect(memo.lookup(bytes(request(2)))).toEqual(request(2));
    expect(memo.lookup(bytes(request('mcp-7')))).toEqual(request('mcp-7'));
    expect(memo.lookup(bytes(request(3, { code_sha256: 'cd', target: { url_contains: '/a' } })))).toBeNull();
    // The same envelope written differently is other bytes: decoded and parsed as usual.
    expect(memo.lookup(Buffer.from(` ${JSON.stringify(request(4))}`))).toBeNull();
  });

  it('keys a frame it just missed by that frame, and any other frame by its own bytes', () => {
    const memo = new EnvelopeMemo(true);
    memo.remember(bytes(request(1)), request(1) as Envelope);
    const b = request(1, { b: 1 });
    const c = request(1, { c: 1 });
    const missed = bytes(b);
    expect(memo.lookup(missed)).toBeNull();
    memo.remember(bytes(c), c as Envelope); // not the frame just missed
    expect(memo.lookup(bytes(request(2, { c: 1 })))).toEqual(request(2, { c: 1 }));
    expect(memo.lookup(bytes(request(2, { b: 1 })))).toBeNull();
    expect(memo.lookup(missed)).toBeNull();
    memo.remember(missed, b as Envelope);
    expect(memo.lookup(bytes(request(3, { b: 1 })))).toEqual(request(3, { b: 1 }));
  });

  it('never answers for an id the schema refuses', () => {
    const memo = new EnvelopeMemo(true);
    memo.remember(bytes(request(1)), request(1) as Envelope);
    for (const id of [1.5, '', 'x'.repeat(129), true, null])
      expect(memo.lookup(bytes(request(id)))).toBeNull();
    const text = JSON.stringify(request(1)).replace('"id":1', '"id":tru');
    expect(memo.lookup(Buffer.from(text))).toBeNull();
  });

  it('keeps nothing a client could make read differently: a second "id", an escaped key, no id', () => {
    const memo = new EnvelopeMemo(true);
    const twice = JSON.stringify(request(1)).replace('"command"', '"id":5,"command"');
    memo.remember(Buffer.from(twice), request(5) as Envelope);
    expect(memo.lookup(Buffer.from(twice.replace('"id":1', '"id":2')))).toBeNull();
    const escaped = JSON.stringify(request(1)).replace('"command"', '"\\u0069d":5,"command"');
    memo.remember(Buffer.from(escaped), request(5) as Envelope);
    expect(memo.lookup(Buffer.from(escaped.replace('"id":1', '"id":2')))).toBeNull();
    const event = { type: 'event', event: 'x', data: {} };
    memo.remember(bytes(event), event as Envelope);
    expect(memo.lookup(bytes(event))).toBeNull();
  });

  it('finds the extension’s top-level id among nested ones (a JS serializer writes each key once)', () => {
    const response = (id: number) => ({ type: 'response', id, ok: true, result: { tab: { id: 9 } } });
    const trusted = new EnvelopeMemo(false);
    trusted.remember(bytes(response(1)), response(1) as Envelope);
    expect(trusted.lookup(bytes(response(2)))).toEqual(response(2));
    const untrusted = new EnvelopeMemo(true);
    untrusted.remember(bytes(response(1)), response(1) as Envelope);
    expect(untrusted.lookup(bytes(response(2)))).toBeNull();
  });

  it('keeps only small envelopes, and the most recently used ones', () => {
    const memo = new EnvelopeMemo(true, 2, 200);
    const big = request(1, { code: 'x'.repeat(300) });
    memo.remember(bytes(big), big as Envelope);
    expect(memo.lookup(bytes(request(2, { code: 'x'.repeat(300) })))).toBeNull();
    const a = request(1, { a: 1 });
    const b = request(1, { b: 1 });
    const c = request(1, { c: 1 });
    memo.remember(bytes(a), a as Envelope);
    memo.remember(bytes(b), b as Envelope);
    expect(memo.lookup(bytes(request(2, { a: 1 })))).not.toBeNull(); // a is now the most recent
    memo.remember(bytes(c), c as Envelope);
    expect(memo.lookup(bytes(request(3, { b: 1 })))).toBeNull();
    expect(memo.lookup(bytes(request(3, { a: 1 })))).toEqual(request(3, { a: 1 }));
    expect(memo.lookup(bytes(request(3, { c: 1 })))).toEqual(request(3, { c: 1 }));
  });

  it('hands out envelopes no caller can change for the next one', () => {
    const memo = new EnvelopeMemo(true);
    memo.remember(bytes(request(1)), request(1) as Envelope);
    const first = memo.lookup(bytes(request(2))) as {
      id: unknown;
      params: { target: { url_contains: string } };
    };
    expect(() => {
      first.params.target.url_contains = '/b';
    }).toThrow(TypeError);
    first.id = 99;
    expect(memo.lookup(bytes(request(3)))).toEqual(request(3));
  });
});
