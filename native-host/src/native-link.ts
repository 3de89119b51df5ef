import type { Readable, Writable } from 'node:stream';
import { ChunkAssembler, splitIntoChunks } from '#shared/chunking.js';
import {
  CHUNK_CHARS,
  EXTENSION_STREAM_MAX_CHARS,
  EXTENSION_TO_HOST_MAX_BYTES,
  HOST_TO_EXTENSION_MAX_BYTES,
} from '#shared/constants.js';
import { Chunk, Envelope } from '#shared/envelopes.js';
import { XipeError } from '#shared/errors.js';
import { encodeJsonFrame } from '#shared/node/framing.js';
import type { Logger } from '#shared/node/logger.js';
import { formatZodError } from '#shared/validation-issues.js';
import { type ChannelCloseReason, FrameChannel } from './frame-channel.js';

/**
 * The extension's side of the host: native-messaging frames on stdin/stdout. stdout carries
 * nothing but frames. Messages to the extension over Chrome's 1 MiB cap go out as `chunk`
 * envelopes; chunks coming in (the extension may chunk too) are reassembled before parsing.
 */

export interface NativeLinkHandlers {
  /** A parsed envelope from the extension. */
  onEnvelope(envelope: Envelope, payloadBytes: number): void;
  /** A frame that decoded as JSON but is not an envelope (it is logged; `raw` lets the caller answer). */
  onInvalid(raw: unknown, error: string): void;
  onClose(reason: ChannelCloseReason, error?: Error): void;
}

export interface NativeLinkOptions {
  input: Readable;
  output: Writable;
  logger: Logger;
  handlers: NativeLinkHandlers;
  maxInboundBytes?: number;
  maxOutboundBytes?: number;
  chunkChars?: number;
  /** Prefix of chunk stream ids, so they are unique per host process. */
  streamPrefix?: string;
}

export class NativeLink {
  private readonly channel: FrameChannel;
  /** Room for the extension's largest message: a staged full-page PNG (16 000 CSS px at DPR 2). */
  private readonly assembler = new ChunkAssembler(EXTENSION_STREAM_MAX_CHARS);
  private readonly maxOutboundBytes: number;
  private readonly chunkChars: number;
  private readonly streamPrefix: string;
  private nextStream = 1;

  constructor(private readonly options: NativeLinkOptions) {
    this.maxOutboundBytes = options.maxOutboundBytes ?? HOST_TO_EXTENSION_MAX_BYTES;
    this.chunkChars = options.chunkChars ?? CHUNK_CHARS;
    this.streamPrefix = options.streamPrefix ?? `h${process.pid}`;
    this.channel = new FrameChannel(
      options.input,
      options.output,
      options.maxInboundBytes ?? EXTENSION_TO_HOST_MAX_BYTES,
      {
        onValue: (value, bytes) => this.onValue(value, bytes),
        onClose: (reason, error) => {
          this.assembler.clear();
          options.handlers.onClose(reason, error);
        },
      },
    );
  }

  get canSend(): boolean {
    return this.channel.canWrite;
  }

  /**
   * Sends one envelope, chunked when its frame would exceed the extension's cap. Throws
   * PAYLOAD_TOO_LARGE when even chunking cannot carry it.
   */
  send(message: Envelope): void {
    const json = JSON.stringify(message);
    if (Buffer.byteLength(json, 'utf8') <= this.maxOutboundBytes) {
      this.channel.writeFrame(encodeJsonFrame(json, this.maxOutboundBytes));
      return;
    }
    const stream = `${this.streamPrefix}-${this.nextStream++}`;
    const chunks = splitIntoChunks(json, stream, this.chunkChars);
    const parsedTotal = Chunk.shape.total.safeParse(chunks.length);
    if (!parsedTotal.success) {
      throw new XipeError(
        'PAYLOAD_TOO_LARGE',
        `Message of ${json.length} characters is too large for the extension link`,
      );
    }
    // Encode every piece before writing any, so a failure never leaves a partial stream behind.
    let frames: Buffer[];
    try {
      frames = chunks.map((chunk) => encodeJsonFrame(JSON.stringify(chunk), this.maxOutboundBytes));
    } catch (err) {
      throw new XipeError(
        'PAYLOAD_TOO_LARGE',
        `Message cannot be chunked for the extension link: ${(err as Error).message}`,
      );
    }
    for (const frame of frames) this.channel.writeFrame(frame);
    this.options.logger.debug('sent chunked message', { stream, chunks: frames.length });
  }

  flush(): Promise<void> {
    return this.channel.flush();
  }

  stopReading(): void {
    this.channel.stopReading();
  }

  private onValue(value: unknown, payloadBytes: number): void {
    const parsed = Envelope.safeParse(value);
    if (!parsed.success) {
      this.options.handlers.onInvalid(value, formatZodError(parsed.error, value));
      return;
    }
    const envelope = parsed.data;
    if (envelope.type !== 'chunk') {
      this.options.handlers.onEnvelope(envelope, payloadBytes);
      return;
    }
    let whole: string | null;
    try {
      whole = this.assembler.push(envelope);
    } catch (err) {
      this.options.logger.warn('dropped inconsistent chunk stream', { error: (err as Error).message });
      return;
    }
    if (whole === null) return;
    let inner: unknown;
    try {
      inner = JSON.parse(whole);
    } catch {
      this.options.handlers.onInvalid(undefined, 'reassembled chunk stream is not valid JSON');
      return;
    }
    const innerParsed = Envelope.safeParse(inner);
    if (!innerParsed.success || innerParsed.data.type === 'chunk') {
      this.options.handlers.onInvalid(inner, 'reassembled chunk stream is not an envelope');
      return;
    }
    this.options.handlers.onEnvelope(innerParsed.data, Buffer.byteLength(whole, 'utf8'));
  }
}
