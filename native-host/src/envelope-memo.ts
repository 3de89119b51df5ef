import { type Envelope, RequestId } from '../../shared/src/envelopes.js';
import { LruCache } from '../../shared/src/lru-cache.js';
import { deepFreeze } from '../../shared/src/parse-memo.js';
import { idSpan } from './relay-frames.js';

/** The envelopes that carry an id, the only ones a memo keeps (a hello, event or chunk never). */
type WithId = Extract<Envelope, { id: RequestId }>;

/** Where a frame's id is, and the key its other bytes make. */
interface Keyed {
  span: { start: number; end: number };
  key: string;
}

/**
 * Envelopes the host parsed before, by their bytes but for the top-level `id`. An MCP server
 * repeats a request call after call (the same script by its hash into the same tab), and the
 * extension its answer, each under a new id: the host decoded the JSON and checked the envelope's
 * schema for every one (decoding and checking were a third of the host's CPU per relayed call).
 * A frame whose bytes, the id's value left out, are those of an envelope the schema accepted is
 * that envelope again with the new id, once the id itself is a valid `RequestId`: nothing else
 * in it can differ, so the schema's answer cannot either (`parse-memo.ts` does the same for
 * `params`, keyed by their JSON text). Anything else is decoded and parsed as before, and what
 * parses is remembered.
 *
 * `untrusted` is relay-frames' rule for finding the id: a bridge client is any local process
 * with the token, so only frames in which no other key can read as "id" are kept; the extension's
 * come out of a JS serializer, one key each.
 */
export class EnvelopeMemo {
  private readonly known: LruCache<string, Readonly<WithId>>;
  /**
   * The last frame `lookup` keyed but did not know: the caller decodes and parses it, then
   * remembers it, and the key is not worked out twice.
   */
  private lastMiss: { payload: Buffer; keyed: Keyed } | null = null;

  constructor(
    private readonly untrusted: boolean,
    maxEntries = 32,
    private readonly maxBytes = 2048,
  ) {
    this.known = new LruCache(maxEntries);
  }

  /** The envelope `payload` holds, when it is one parsed before under another id; else null. */
  lookup(payload: Buffer): WithId | null {
    if (this.known.size === 0) return null;
    const keyed = this.keyed(payload);
    if (keyed === null) return null;
    const envelope = this.known.get(keyed.key);
    if (envelope === undefined) {
      this.lastMiss = { payload, keyed };
      return null;
    }
    const id = RequestId.safeParse(idValue(payload, keyed.span));
    if (!id.success) return null;
    return { ...envelope, id: id.data };
  }

  /** Keeps `envelope`, just parsed from `payload`, for the next frame that differs only by its id. */
  remember(payload: Buffer, envelope: Envelope): void {
    const missed = this.lastMiss;
    this.lastMiss = null;
    if (!('id' in envelope)) return;
    const keyed = missed?.payload === payload ? missed.keyed : this.keyed(payload);
    if (keyed === null) return;
    this.known.set(keyed.key, deepFreeze({ ...envelope }));
  }

  /**
   * The frame's key: the bytes around the id's value, with where the id was (two frames with one
   * key differ only by it). Null for a frame the memo does not keep.
   */
  private keyed(payload: Buffer): Keyed | null {
    if (payload.length > this.maxBytes) return null;
    const span = idSpan(payload, this.untrusted);
    if (span === null) return null;
    return {
      span,
      key: `${span.start}:${payload.toString('latin1', 0, span.start)}${payload.toString('latin1', span.end)}`,
    };
  }
}

/** The id's JSON value (a short scalar, relay-frames made sure), or undefined when it is not JSON. */
function idValue(payload: Buffer, span: { start: number; end: number }): unknown {
  try {
    return JSON.parse(payload.toString('utf8', span.start, span.end));
  } catch {
    return undefined;
  }
}
