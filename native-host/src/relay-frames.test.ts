import { describe, expect, it } from 'vitest';
import { RELAY_BYTES_FROM, relayFrame, withId } from './relay-frames.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const relayed = (text: string, id: number | string): unknown => {
  const out = withId(bytes(text), id);
  return out === null ? null : JSON.parse(out.toString('utf8'));
};

describe('withId: the relayed envelope is the same bytes with another top-level id', () => {
  it('replaces the id where our senders put it, keeping every other byte', () => {
    const code = `${'x'.repeat(30_000)} "quoted" \\ é`;
    const request = JSON.stringify({
      type: 'request',
      id: 17,
      command: 'inject_script',
      params: { code, target: { url_contains: '/a' } },
      timeout_ms: 30_000,
    });
    const out = withId(bytes(request), 4242);
    expect(out?.toString('utf8')).toBe(request.replace('"id":17', '"id":4242'));
    expect(
      relayed(JSON.stringify({ type: 'response', id: 3, ok: true, result: { v: 'id' } }), 'c-1'),
    ).toBeNull();
    // From the extension (one key each, a JS serializer's output), nested ids do not matter.
    const response = JSON.stringify({ type: 'response', id: 3, ok: true, result: { tab: { id: 9 } } });
    expect(JSON.parse(withId(bytes(response), 'c-1', false)?.toString('utf8') ?? 'null')).toEqual({
      type: 'response',
      id: 'c-1',
      ok: true,
      result: { tab: { id: 9 } },
    });
    expect(relayed(JSON.stringify({ type: 'response', id: 3, ok: true, result: [1] }), 'c-1')).toEqual({
      type: 'response',
      id: 'c-1',
      ok: true,
      result: [1],
    });
    expect(relayed(' { "type" : "response" , "id" : "ext-9" , "ok" : true } ', 9)).toEqual({
      type: 'response',
      id: 9,
      ok: true,
    });
  });

  it('gives up (the caller re-serialises) when the id is not a leading short member', () => {
    expect(relayed('{"type":"request","command":"x","params":{"a":1},"id":1}', 2)).toBeNull();
    expect(relayed('{"params":{"id":1},"id":1}', 2)).toBeNull();
    expect(relayed('{"type":"re\\u0071uest","id":1}', 2)).toBeNull();
    expect(relayed('{"type":"request"}', 2)).toBeNull();
    expect(relayed('[1]', 2)).toBeNull();
    expect(relayed('', 2)).toBeNull();
  });

  it('gives up when another key could also read as "id" (JSON.parse keeps the last one)', () => {
    expect(relayed('{"type":"request","id":1,"command":"x","id":5}', 2)).toBeNull();
    expect(relayed('{"type":"request","id":1,"command":"x","\\u0069d":5}', 2)).toBeNull();
    expect(relayed('{"type":"request","id":1,"command":"x","i\\u0064":5}', 2)).toBeNull();
    expect(relayed('{"type":"request","id":1,"command":"x","\\u0069\\u0064":5}', 2)).toBeNull();
  });

  it('frames it with its length; a small message is left to JSON.stringify, which is cheaper there', () => {
    const small = bytes(JSON.stringify({ type: 'request', id: 1, command: 'list_tabs', params: {} }));
    expect(relayFrame(small, 2, 1 << 20, true)).toBeNull();
    const big = bytes(
      JSON.stringify({
        type: 'request',
        id: 1,
        command: 'x',
        params: { code: 'y'.repeat(RELAY_BYTES_FROM) },
      }),
    );
    const frame = relayFrame(big, 'r-2', 1 << 20, true);
    expect(frame?.readUInt32LE(0)).toBe((frame?.length ?? 0) - 4);
    expect(frame?.subarray(4)).toEqual(withId(big, 'r-2'));
    expect(relayFrame(big, 'r-2', big.length - 1, true)).toBeNull(); // over the link's cap
  });
});
