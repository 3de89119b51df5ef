import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '../sdk.js';

/**
 * Splits a byte stream into newline-delimited lines in linear time. The SDK's ReadBuffer re-joins
 * the whole buffer and rescans it from the start on every 64 KiB chunk, which made one 10 MiB
 * save_uiux_reference call cost ~2 s; here each byte is scanned once and joined once. A line over
 * the cap is never joined, however the chunks fall: it is reported once (`onTooLong`) and skipped
 * up to its newline.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line that went over the cap: drop bytes until its newline. */
  private skipping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onTooLong: (error: Error) => void = (error) => {
      throw error;
    },
  ) {}

  /** Returns the complete lines (without the newline and an optional \r) ended by this chunk. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (!this.skipping && this.pendingBytes + piece.length > this.maxLineBytes) {
        this.parts = [];
        this.pendingBytes = 0;
        this.skipping = true;
        this.onTooLong(new Error(`a JSON-RPC message exceeds ${this.maxLineBytes} bytes`));
      }
      if (nl === -1) {
        if (!this.skipping && piece.length > 0) {
          this.parts.push(piece);
          this.pendingBytes += piece.length;
        }
        return lines;
      }
      if (this.skipping) {
        this.skipping = false;
      } else {
        const whole = this.parts.length === 0 ? piece : Buffer.concat([...this.parts, piece]);
        this.parts = [];
        this.pendingBytes = 0;
        const text = whole.toString('utf8');
        lines.push(text.endsWith('\r') ? text.slice(0, -1) : text);
      }
      start = nl + 1;
    }
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
    this.splitter = new LineSplitter(options.maxMessageBytes, (error) => this.onerror?.(error));
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
