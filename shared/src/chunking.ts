import { CHUNK_CHARS } from './constants.js';
import type { Chunk } from './envelopes.js';

/**
 * Splits the serialized JSON of a message into `chunk` envelopes, never cutting a surrogate pair
 * (a lone surrogate would be re-encoded as an escape and corrupt the text).
 */
export function splitIntoChunks(json: string, stream: string, chunkChars = CHUNK_CHARS): Chunk[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < json.length) {
    let end = Math.min(start + chunkChars, json.length);
    const last = json.charCodeAt(end - 1);
    // (unless the piece is that one unit: with chunkChars 1 the pair must be cut, or we never advance)
    if (end < json.length && end - 1 > start && last >= 0xd800 && last <= 0xdbff) end -= 1;
    pieces.push(json.slice(start, end));
    start = end;
  }
  return pieces.map((data, seq) => ({ type: 'chunk', stream, seq, total: pieces.length, data }));
}

/** Reassembles chunk streams; returns the whole JSON text when the last piece arrives. */
export class ChunkAssembler {
  private readonly streams = new Map<
    string,
    { total: number; parts: string[]; received: number; chars: number }
  >();
  private readonly maxChars: number;

  constructor(maxChars = 128 * 1024 * 1024) {
    this.maxChars = maxChars;
  }

  push(chunk: Chunk): string | null {
    let entry = this.streams.get(chunk.stream);
    if (entry === undefined) {
      entry = { total: chunk.total, parts: new Array<string>(chunk.total), received: 0, chars: 0 };
      this.streams.set(chunk.stream, entry);
    }
    if (chunk.total !== entry.total || chunk.seq >= entry.total) {
      this.streams.delete(chunk.stream);
      throw new Error(`inconsistent chunk ${chunk.seq}/${chunk.total} in stream ${chunk.stream}`);
    }
    if (entry.parts[chunk.seq] === undefined) {
      entry.parts[chunk.seq] = chunk.data;
      entry.received += 1;
      entry.chars += chunk.data.length;
    }
    // The characters really held (pieces may be larger than CHUNK_CHARS: the extension's are).
    if (entry.chars > this.maxChars) {
      this.streams.delete(chunk.stream);
      throw new Error(`chunk stream ${chunk.stream} exceeds ${this.maxChars} characters`);
    }
    if (entry.received < entry.total) return null;
    this.streams.delete(chunk.stream);
    return entry.parts.join('');
  }

  /** Drops partial streams (e.g. after the link restarts). */
  clear(): void {
    this.streams.clear();
  }
}
