import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LinearStdioServerTransport, LineSplitter } from './stdio-transport.js';

describe('LineSplitter', () => {
  it('yields every line of merged chunks and keeps a partial tail', () => {
    const s = new LineSplitter(1024);
    expect(s.push(Buffer.from('{"a":1}\n{"b":2}\r\n{"c"'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(s.push(Buffer.from(':3}'))).toEqual([]);
    expect(s.push(Buffer.from('\n'))).toEqual(['{"c":3}']);
  });

  it('reassembles a line split at every byte, including multi-byte characters', () => {
    const text = '{"t":"héllo ✓ 😀"}\n';
    const bytes = Buffer.from(text);
    const s = new LineSplitter(1024);
    const out: string[] = [];
    for (const byte of bytes) out.push(...s.push(Buffer.from([byte])));
    expect(out).toEqual([text.trimEnd()]);
  });

  it('refuses a line over the cap and recovers on the next line', () => {
    const s = new LineSplitter(8);
    expect(() => s.push(Buffer.from('0123456789'))).toThrow(/exceeds 8 bytes/);
    expect(s.push(Buffer.from('{}\n'))).toEqual([]); // the rest of the refused line
    expect(s.push(Buffer.from('{}\n'))).toEqual(['{}']);
  });

  it('caps the line, not only what is left over: a line completed within one chunk is refused too', () => {
    const errors: Error[] = [];
    const s = new LineSplitter(8, (e) => errors.push(e));
    expect(s.push(Buffer.from('1234'))).toEqual([]);
    // 4 pending + 6 more in the chunk that ends the line: 10 bytes, over the cap of 8.
    expect(s.push(Buffer.from('567890\n{}\n12345678\n'))).toEqual(['{}', '12345678']);
    expect(errors.map((e) => e.message)).toEqual(['a JSON-RPC message exceeds 8 bytes']);
    expect(s.push(Buffer.from('123456789\n{"a":1}\n'))).toEqual(['{"a":1}']);
    expect(errors).toHaveLength(2);
  });

  it('reports an over-long line once and never parses its tail as a message', () => {
    const errors: Error[] = [];
    const s = new LineSplitter(8, (e) => errors.push(e));
    const out: string[] = [];
    for (const chunk of ['0123456789', 'abcdefghij', '{"x":1}', '\n{}\n'])
      out.push(...s.push(Buffer.from(chunk)));
    expect(out).toEqual(['{}']);
    expect(errors).toHaveLength(1);
  });

  it('handles a 10 MiB line delivered in 64 KiB chunks', () => {
    const line = `{"x":"${'y'.repeat(10 * 1024 * 1024)}"}\n`;
    const bytes = Buffer.from(line);
    const s = new LineSplitter(64 * 1024 * 1024);
    const out: string[] = [];
    for (let i = 0; i < bytes.length; i += 65536) out.push(...s.push(bytes.subarray(i, i + 65536)));
    expect(out).toHaveLength(1);
    expect(out[0]?.length).toBe(line.length - 1);
  });
});

describe('LinearStdioServerTransport', () => {
  it('parses JSON-RPC messages, answers a line that is not JSON with -32700 and writes one line per message', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const t = new LinearStdioServerTransport(stdin, stdout, { maxMessageBytes: 1024 });
    const messages: unknown[] = [];
    const errors: Error[] = [];
    t.onmessage = (m) => messages.push(m);
    t.onerror = (e) => errors.push(e);
    await t.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json\n');
    await new Promise((r) => setImmediate(r));
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(errors).toHaveLength(1);
    expect(stdout.read()?.toString()).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not JSON"}}\n',
    );
    await t.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(stdout.read()?.toString()).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    let closed = false;
    t.onclose = () => {
      closed = true;
    };
    await t.close();
    expect(closed).toBe(true);
  });

  it('hands a JSON array to onbatch (the guard decides) and writes a batch answer as one line', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const t = new LinearStdioServerTransport(stdin, stdout, { maxMessageBytes: 1024 });
    const batches: unknown[][] = [];
    t.onbatch = (items) => batches.push(items);
    await t.start();
    stdin.write('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"}]\n');
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'n' },
      ],
    ]);
    await t.sendBatch([{ jsonrpc: '2.0', id: 1, result: {} }]);
    expect(stdout.read()?.toString()).toBe('[{"jsonrpc":"2.0","id":1,"result":{}}]\n');
  });
});
