/**
 * Native-messaging framing: each message is a 4-byte little-endian length followed by that many
 * bytes of UTF-8 JSON. The same codec frames the MCP↔host bridge. Pure: no I/O here.
 */

export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

const HEADER_BYTES = 4;

/**
 * Accumulates chunks and yields every complete frame (several may arrive in one chunk). Chunks are
 * kept in a list and joined once a whole frame is there: joining on every chunk made a 10 MiB frame
 * in 64 KiB reads cost ~2 s of copying (quadratic); this is linear.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private total = 0;
  private readonly maxFrameBytes: number;

  constructor(maxFrameBytes: number) {
    this.maxFrameBytes = maxFrameBytes;
  }

  /** Returns the payloads completed by this chunk. Throws FrameError on an oversized length. */
  push(chunk: Buffer): Buffer[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.total += chunk.length;
    }
    const frames: Buffer[] = [];
    while (this.total >= HEADER_BYTES) {
      const length = this.header().readUInt32LE(0);
      if (length > this.maxFrameBytes) {
        this.chunks = [];
        this.total = 0;
        throw new FrameError(`frame of ${length} bytes exceeds the ${this.maxFrameBytes}-byte cap`);
      }
      if (this.total < HEADER_BYTES + length) break;
      const all = this.joined();
      frames.push(all.subarray(HEADER_BYTES, HEADER_BYTES + length));
      const rest = all.subarray(HEADER_BYTES + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.total = rest.length;
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
