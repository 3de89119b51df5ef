/**
 * Native-messaging framing: each message is a 4-byte little-endian length followed by that many
 * bytes of UTF-8 JSON. The same codec frames the MCP↔host bridge. Pure: no I/O here.
 */

export class FrameError extends Error {
  /**
   * Complete frames that arrived before the bad header, in order (only from `push`). They were
   * sent before the stream went bad, so a caller delivers them before acting on the error.
   */
  readonly frames: Buffer[];

  constructor(message: string, frames: Buffer[] = []) {
    super(message);
    this.name = 'FrameError';
    this.frames = frames;
  }
}

const HEADER_BYTES = 4;

/**
 * Accumulates chunks and yields every complete frame (several may arrive in one chunk). Chunks are
 * kept in a list and joined once a whole frame is there: joining on every chunk made a 10 MiB frame
 * in 64 KiB reads cost ~2 s of copying (quadratic); this is linear.
 *
 * Two ways to read: `append` + `next` hands out one frame at a time, so a caller can act on each
 * frame (and change the cap, e.g. after a handshake) before the next header is checked; `push`
 * returns every frame a chunk completes.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private total = 0;
  private cap: number;

  constructor(maxFrameBytes: number) {
    this.cap = maxFrameBytes;
  }

  /** The largest payload accepted; checked against each header when it is read. */
  get maxFrameBytes(): number {
    return this.cap;
  }

  set maxFrameBytes(value: number) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`invalid frame cap: ${value}`);
    this.cap = value;
  }

  /** Buffers a chunk without reading frames from it. */
  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.total += chunk.length;
  }

  /**
   * The next complete payload, or null when the buffered bytes do not hold one yet. Throws
   * FrameError on a header over the cap, before its body is buffered, and drops what was buffered:
   * the byte stream cannot be trusted after that.
   */
  next(): Buffer | null {
    if (this.total < HEADER_BYTES) return null;
    const length = this.header().readUInt32LE(0);
    if (length > this.cap) {
      this.chunks = [];
      this.total = 0;
      throw new FrameError(`frame of ${length} bytes exceeds the ${this.cap}-byte cap`);
    }
    if (this.total < HEADER_BYTES + length) return null;
    const all = this.joined();
    const rest = all.subarray(HEADER_BYTES + length);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.total = rest.length;
    return all.subarray(HEADER_BYTES, HEADER_BYTES + length);
  }

  /**
   * Returns the payloads completed by this chunk. Throws FrameError on an oversized length; the
   * complete frames before it in the same chunk are on the error's `frames`.
   */
  push(chunk: Buffer): Buffer[] {
    this.append(chunk);
    const frames: Buffer[] = [];
    try {
      for (let frame = this.next(); frame !== null; frame = this.next()) frames.push(frame);
    } catch (err) {
      if (err instanceof FrameError && frames.length > 0) throw new FrameError(err.message, frames);
      throw err;
    }
    return frames;
  }

  /** Bytes received but not yet forming a complete frame. */
  get pending(): number {
    return this.total;
  }

  /** The first 4 bytes (joining only the few small chunks they may span). */
  private header(): Buffer {
    const first = this.chunks[0];
    if (first !== undefined && first.length >= HEADER_BYTES) return first;
    const head = Buffer.concat(this.chunks);
    this.chunks = [head];
    return head;
  }

  private joined(): Buffer {
    const only = this.chunks[0];
    if (this.chunks.length === 1 && only !== undefined) return only;
    const all = Buffer.concat(this.chunks, this.total);
    this.chunks = [all];
    return all;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes one payload into a JSON value; throws FrameError on invalid UTF-8 or JSON. */
export function decodePayload(payload: Buffer): unknown {
  let text: string;
  try {
    text = UTF8.decode(payload);
  } catch {
    throw new FrameError('frame is not valid UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new FrameError(`frame is not valid JSON: ${(err as Error).message}`);
  }
}

/** Encodes a message as one frame; refuses messages the peer would reject. */
export function encodeFrame(message: unknown, maxFrameBytes: number): Buffer {
  const json = JSON.stringify(message);
  if (json === undefined) throw new FrameError('message is not JSON-serializable');
  return encodeJsonFrame(json, maxFrameBytes);
}

/** Frames already-serialized JSON (lets a sender measure the text once and chunk it if too big). */
export function encodeJsonFrame(json: string, maxFrameBytes: number): Buffer {
  const length = Buffer.byteLength(json, 'utf8');
  if (length > maxFrameBytes) {
    throw new FrameError(`message of ${length} bytes exceeds the ${maxFrameBytes}-byte cap`);
  }
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
  frame.writeUInt32LE(length, 0);
  frame.write(json, HEADER_BYTES, 'utf8');
  return frame;
}
