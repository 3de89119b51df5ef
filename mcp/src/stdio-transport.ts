import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from './sdk.js';

/**
 * Splits a byte stream into newline-delimited lines in linear time. The SDK's ReadBuffer re-joins
 * the whole buffer and rescans it from the start on every 64 KiB chunk, which made one 10 MiB
 * save_uiux_reference call cost ~2 s; here each byte is scanned once and joined once.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private pendingBytes = 0;
  private readonly maxLineBytes: number;

  constructor(maxLineBytes: number) {
    this.maxLineBytes = maxLineBytes;
  }

  /** Returns the complete lines (without the newline and an optional \r) ended by this chunk. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const tail = chunk.subarray(start, nl);
      const whole = this.parts.length === 0 ? tail : Buffer.concat([...this.parts, tail]);
      this.parts = [];
      this.pendingBytes = 0;
      const text = whole.toString('utf8');
      lines.push(text.endsWith('\r') ? text.slice(0, -1) : text);
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pendingBytes += rest.length;
      if (this.pendingBytes > this.maxLineBytes) {
        this.parts = [];
        this.pendingBytes = 0;
        throw new Error(`a JSON-RPC message exceeds ${this.maxLineBytes} bytes`);
      }
      this.parts.push(rest);
    }
    return lines;
  }
}

/** MCP stdio server transport: JSON-RPC, one message per line, stdout for nothing else. */
export class LinearStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  onbatch?: (items: unknown[]) => void;

  private readonly splitter: LineSplitter;
  private started = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    options: { maxMessageBytes: number },
  ) {
    this.splitter = new LineSplitter(options.maxMessageBytes);
  }

  private readonly onData = (chunk: Buffer): void => {
    let lines: string[];
    try {
      lines = this.splitter.push(chunk);
    } catch (err) {
      this.onerror?.(err as Error);
      return;
    }
    for (const line of lines) {
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        // JSON-RPC: unparseable input is answered (-32700, id null), never dropped in silence.
        this.onerror?.(err as Error);
        this.write({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Parse error: the line is not JSON' },
        });
        continue;
      }
      // Which messages are valid (and whether a batch is allowed) is the protocol guard's call.
      if (Array.isArray(value) && this.onbatch !== undefined) this.onbatch(value);
      else this.onmessage?.(value as JSONRPCMessage);
    }
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    if (this.started) throw new Error('LinearStdioServerTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  sendBatch(messages: JSONRPCMessage[]): Promise<void> {
    return this.write(messages);
  }

  private write(value: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(value)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}
