import type { Readable, Writable } from 'node:stream';
import { decodePayload, FrameError, FrameReader } from '#shared/node/framing.js';

/**
 * Frames over a pair of byte streams (stdin/stdout for the native link, one socket for a bridge
 * client). Reading yields decoded JSON values; writing respects back-pressure by queueing frames
 * while the stream asks us to wait, so a slow peer never makes us write into a full pipe blindly.
 */

export type ChannelCloseReason =
  /** The peer closed its side (stdin ended, socket closed). */
  | 'end'
  /** Writing failed (EPIPE, reset): the peer is gone. */
  | 'output-error'
  /** A frame could not be decoded; the byte stream is no longer trustworthy. */
  | 'desync'
  /** We closed it. */
  | 'local';

export interface FrameChannelHandlers {
  onValue(value: unknown, payloadBytes: number): void;
  /** Called once, with the first reason the channel stopped. */
  onClose(reason: ChannelCloseReason, error?: Error): void;
}

export class FrameChannel {
  private readonly reader: FrameReader;
  private readonly queue: Buffer[] = [];
  private waitingForDrain = false;
  private closed = false;
  private reading = true;
  private outputFailed = false;
  private queuedBytes = 0;
  /** Frames handed to the output whose write callback has not run yet, and who waits for none. */
  private writesInFlight = 0;
  private readonly whenWritten: Array<() => void> = [];

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    maxInboundBytes: number,
    private readonly handlers: FrameChannelHandlers,
  ) {
    this.reader = new FrameReader(maxInboundBytes);
    input.on('data', this.onData);
    input.once('end', () => this.finish('end'));
    input.once('close', () => this.finish('end'));
    input.on('error', (err: Error) => this.finish('end', err));
    output.on('error', (err: Error) => {
      this.outputFailed = true;
      this.queue.length = 0;
      this.queuedBytes = 0;
      this.finish('output-error', err);
    });
  }

  /** True once reading stopped (peer closed, desync, or we closed). Writing may still work. */
  get isClosed(): boolean {
    return this.closed;
  }

  get canWrite(): boolean {
    return !this.outputFailed && !this.output.destroyed && !this.output.writableEnded;
  }

  /** Bytes handed to us but not yet accepted by the output stream. */
  get backlogBytes(): number {
    return this.queuedBytes + this.output.writableLength;
  }

  /** The largest inbound frame accepted from the next header on (raised once a peer authenticated). */
  setMaxInboundBytes(bytes: number): void {
    this.reader.maxFrameBytes = bytes;
  }

  /** Writes one encoded frame, queueing it while the output stream is applying back-pressure. */
  writeFrame(frame: Buffer): void {
    if (!this.canWrite) return;
    if (this.waitingForDrain) {
      this.queue.push(frame);
      this.queuedBytes += frame.length;
      return;
    }
    this.writeNow(frame);
  }

  /** Resolves once every frame written so far has been handed to the OS (or the output failed). */
  flush(): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.queue.length === 0 || !this.canWrite) {
          if (this.writesInFlight === 0) resolve();
          else this.whenWritten.push(resolve);
        } else {
          this.output.once('drain', check);
        }
      };
      check();
    });
  }

  /** Stops reading; the output stays usable until `destroy`. */
  stopReading(): void {
    this.reading = false;
    this.input.off('data', this.onData);
    this.input.pause();
  }

  /** Stops reading and reports 'local' (if nothing else was reported first). */
  close(): void {
    this.stopReading();
    this.finish('local');
  }

  private writeNow(frame: Buffer): void {
    this.writesInFlight += 1;
    // The callback also runs (with an error) when the stream fails, so flush() never hangs. A
    // counter, not a promise per frame: every relayed message passes here twice.
    const ok = this.output.write(frame, this.onWritten);
    if (!ok) {
      this.waitingForDrain = true;
      this.output.once('drain', this.onDrain);
    }
  }

  private readonly onWritten = (): void => {
    this.writesInFlight -= 1;
    if (this.writesInFlight === 0) for (const resolve of this.whenWritten.splice(0)) resolve();
  };

  private readonly onDrain = (): void => {
    this.waitingForDrain = false;
    while (this.queue.length > 0 && !this.waitingForDrain && this.canWrite) {
      const frame = this.queue.shift();
      if (frame === undefined) break;
      this.queuedBytes -= frame.length;
      this.writeNow(frame);
    }
  };

  private readonly onData = (chunk: Buffer | string): void => {
    if (this.closed || !this.reading) return;
    this.reader.append(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    // One frame at a time: each is acted on before the next header is checked, so frames that
    // precede a bad one are delivered, and a handler may change the cap (or stop reading) between.
    while (!this.closed && this.reading) {
      let payload: Buffer | null;
      let value: unknown;
      try {
        payload = this.reader.next();
      } catch (err) {
        this.desync(err);
        return;
      }
      if (payload === null) return;
      try {
        value = decodePayload(payload);
      } catch (err) {
        this.desync(err);
        return;
      }
      this.handlers.onValue(value, payload.length);
    }
  };

  private desync(err: unknown): void {
    this.stopReading();
    this.finish('desync', err instanceof Error ? err : new FrameError(String(err)));
  }

  private finish(reason: ChannelCloseReason, error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.handlers.onClose(reason, error);
  }
}
