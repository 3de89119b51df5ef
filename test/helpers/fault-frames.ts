/**
 * Fault-test helper: fast-check generators of hostile byte streams for the framed links (native
 * stdin and the bridge socket), and a model that predicts what a correct host does with them —
 * computed with the project's own pure codec, so a test compares the real process with the model.
 *
 *   const pieces = fc.sample(linkPieces('native'), 1)[0];
 *   const stream = buildStream(pieces, 'run1');            // bytes + the request ids it carries
 *   const model = predict(stream.bytes, EXTENSION_TO_HOST_MAX_BYTES, { nativeLink: true });
 *
 * The model is computed with the pure codec (decodePayload) and the shared zod envelopes.
 */
import fc from 'fast-check';
import { splitIntoChunks } from '#shared/chunking.js';
import { BRIDGE_MAX_FRAME_BYTES, EXTENSION_TO_HOST_MAX_BYTES, PROTOCOL_VERSION } from '#shared/constants.js';
import { Envelope, RequestId } from '#shared/envelopes.js';
import { decodePayload } from '#shared/node/framing.js';
import { DEFAULT_EXTENSION_INFO } from './fake-extension.js';

export type LinkKind = 'native' | 'bridge';

/** One element of a hostile stream; ids of requests are assigned by position in buildStream. */
export type Piece =
  /** A well-formed request envelope (command chosen from a list that covers every router path). */
  | { kind: 'request'; command: string; params: unknown; timeout: 'none' | 'valid' | 'invalid' }
  /** A request split into `chunk` envelopes (native link only: the host reassembles them). */
  | { kind: 'chunked-request'; pieces: number }
  /** Valid envelopes that are not requests: ping, event, a response nobody asked for, an error. */
  | { kind: 'other-envelope'; value: unknown }
  /** Valid JSON that is not an envelope (sometimes shaped like a request, which deserves an answer). */
  | { kind: 'json'; value: unknown }
  /** A frame whose payload is not UTF-8. */
  | { kind: 'invalid-utf8'; bytes: Uint8Array }
  /** A frame whose payload is UTF-8 but not JSON. */
  | { kind: 'not-json'; text: string }
  /** A header announcing more than the link's cap. */
  | { kind: 'oversized'; length: number }
  /** Arbitrary bytes with no framing at all. */
  | { kind: 'random'; bytes: Uint8Array }
  /** The first part of a valid frame (the rest never comes). */
  | { kind: 'truncated'; keep: number }
  /** A hello the host must refuse (native: another protocol/role; bridge: after auth it is ignored). */
  | { kind: 'bad-hello'; protocol: number; role: 'extension' | 'mcp' };

const COMMANDS_FOR = {
  // On the native link the extension may only call host commands; the others must be refused.
  native: ['host_status', 'list_tabs', 'inject_script', 'no_such_command', 'toString', '__proto__'],
  bridge: ['host_status', 'list_tabs', 'inject_script', 'no_such_command', 'constructor', '__proto__'],
} as const;

/** Bytes a UTF-8 decoder in fatal mode must reject: lone continuation, overlong, surrogate, 0xff. */
const BAD_UTF8: readonly number[][] = [
  [0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf5, 0x80, 0x80, 0x80],
  [0xff],
  [0xc3],
];

const invalidUtf8 = fc
  .tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...BAD_UTF8), fc.string({ maxLength: 20 }))
  .map(([a, bad, b]) => new Uint8Array([...Buffer.from(`{"x":"${a}`), ...bad, ...Buffer.from(`${b}"}`)]));

const notJson = fc.oneof(
  fc.constant('{'),
  fc.constant('undefined'),
  fc.constant('{"type":"request",'),
  fc.constant("{'single':'quotes'}"),
  fc.string({ minLength: 1, maxLength: 40 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
);

const requestParams = fc.oneof(
  fc.constant({}),
  fc.constant({ code: '1 + 1' }),
  fc.constant({ code: 42 }),
  fc.constant({ tab_id: -1 }),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Objects shaped almost like envelopes, which the schema must refuse. */
const nearEnvelopes = fc.oneof(
  fc.constant({ type: 'request', command: 'host_status', params: {} }), // no id
  fc.constant({ type: 'request', id: 'x', command: '', params: {} }), // empty command
  fc.constant({ type: 'request', id: 'y'.repeat(129), command: 'host_status', params: {} }), // id too long
  fc.constant({ type: 'request', id: 1.5, command: 'host_status', params: {} }), // non-integer id
  fc.constant({ type: 'response', id: 1, ok: 'yes', result: null }),
  fc.constant({ type: 'chunk', stream: '', seq: -1, total: 0, data: 1 }),
  fc.constant({ type: 'hello' }),
  fc.constant({ type: null }),
  fc.constant({ type: '__proto__', constructor: { prototype: { polluted: true } } }),
  fc.constant(
    JSON.parse('{"__proto__":{"polluted":true},"type":"event","event":"e","data":null}') as unknown,
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

const otherEnvelopes = fc.oneof(
  fc.constant({ type: 'ping' }),
  fc.record({
    type: fc.constant('event'),
    event: fc.constantFrom('captures_changed', 'x', 'tab_updated'),
    data: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({
    type: fc.constant('response'),
    id: fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom('stray', 'c-1')),
    ok: fc.constant(true),
    result: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.constant({ type: 'error', error: { code: 'INTERNAL_ERROR', message: 'peer says no' } }),
  fc.constant({ type: 'chunk', stream: 'never-completed', seq: 0, total: 3, data: '{"type":' }),
  fc.constant({ type: 'chunk', stream: 'inconsistent', seq: 5, total: 2, data: 'x' }),
);

export function linkPieces(link: LinkKind): fc.Arbitrary<Piece> {
  const cap = link === 'native' ? EXTENSION_TO_HOST_MAX_BYTES : BRIDGE_MAX_FRAME_BYTES;
  const common: Array<fc.Arbitrary<Piece>> = [
    fc.record({
      kind: fc.constant('request' as const),
      command: fc.constantFrom(...COMMANDS_FOR[link]),
      params: requestParams,
      timeout: fc.constantFrom('none' as const, 'valid' as const, 'invalid' as const),
    }),
    otherEnvelopes.map((value) => ({ kind: 'other-envelope' as const, value })),
    nearEnvelopes.map((value) => ({ kind: 'json' as const, value })),
    invalidUtf8.map((bytes) => ({ kind: 'invalid-utf8' as const, bytes })),
    notJson.map((text) => ({ kind: 'not-json' as const, text })),
    fc.integer({ min: cap + 1, max: 0xffffffff }).map((length) => ({ kind: 'oversized' as const, length })),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ kind: 'random' as const, bytes })),
    fc.integer({ min: 1, max: 30 }).map((keep) => ({ kind: 'truncated' as const, keep })),
    fc.record({
      kind: fc.constant('bad-hello' as const),
      protocol: fc.constantFrom(PROTOCOL_VERSION, PROTOCOL_VERSION + 1, 0, -1),
      role: fc.constantFrom('extension' as const, 'mcp' as const),
    }),
  ];
  if (link === 'native') {
    common.push(
      fc.integer({ min: 2, max: 4 }).map((pieces) => ({ kind: 'chunked-request' as const, pieces })),
    );
  }
  // Mostly well-formed traffic, so the hostile pieces land in the middle of a working session.
  return fc.oneof(
    { arbitrary: common[0] as fc.Arbitrary<Piece>, weight: 4 },
    ...common.slice(1).map((arbitrary) => ({ arbitrary, weight: 1 })),
  );
}

const FRAMED_KINDS = new Set<Piece['kind']>([
  'request',
  'chunked-request',
  'other-envelope',
  'json',
  'bad-hello',
]);

/**
 * A stream for one run: half the time only well-framed frames (every request must then be answered
 * and the link must stay up), otherwise any mix including garbage that breaks the framing.
 */
export function linkStream(link: LinkKind, maxLength = 12): fc.Arbitrary<Piece[]> {
  const any = linkPieces(link);
  const framed = any.filter((piece) => FRAMED_KINDS.has(piece.kind));
  return fc.oneof(fc.array(framed, { minLength: 1, maxLength }), fc.array(any, { minLength: 1, maxLength }));
}

export function frameOf(payload: Uint8Array | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload);
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length, 0);
  return Buffer.concat([header, body]);
}

const jsonFrame = (value: unknown): Buffer => frameOf(JSON.stringify(value));

export interface BuiltStream {
  bytes: Buffer;
  /** Ids of the well-formed requests, in order (chunked ones included). */
  requestIds: string[];
}

/** Serialises pieces; request ids are `<prefix>-<index>` so every id is unique in the run. */
export function buildStream(pieces: readonly Piece[], prefix: string): BuiltStream {
  const parts: Buffer[] = [];
  const requestIds: string[] = [];
  pieces.forEach((piece, index) => {
    const id = `${prefix}-${index}`;
    switch (piece.kind) {
      case 'request': {
        const request: Record<string, unknown> = {
          type: 'request',
          id,
          command: piece.command,
          params: piece.params,
        };
        // An invalid timeout makes it a request-shaped non-envelope, which still deserves an answer.
        if (piece.timeout !== 'none') request.timeout_ms = piece.timeout === 'valid' ? 5_000 : -5;
        parts.push(jsonFrame(request));
        requestIds.push(id);
        return;
      }
      case 'chunked-request': {
        const json = JSON.stringify({ type: 'request', id, command: 'host_status', params: {} });
        const chunkChars = Math.ceil(json.length / piece.pieces);
        for (const chunk of splitIntoChunks(json, `s-${id}`, chunkChars)) parts.push(jsonFrame(chunk));
        requestIds.push(id);
        return;
      }
      case 'other-envelope':
      case 'json':
        parts.push(jsonFrame(piece.value));
        return;
      case 'invalid-utf8':
        parts.push(frameOf(piece.bytes));
        return;
      case 'not-json':
        parts.push(frameOf(piece.text));
        return;
      case 'oversized': {
        const header = Buffer.alloc(4);
        header.writeUInt32LE(piece.length, 0);
        parts.push(header, Buffer.from('{"type":"ping"}'));
        return;
      }
      case 'random':
        parts.push(Buffer.from(piece.bytes));
        return;
      case 'truncated': {
        const whole = jsonFrame({ type: 'request', id, command: 'host_status', params: {} });
        parts.push(whole.subarray(0, Math.min(piece.keep, whole.length - 1)));
        return;
      }
      case 'bad-hello': {
        const hello =
          piece.role === 'extension'
            ? {
                type: 'hello',
                role: 'extension',
                protocol: piece.protocol,
                extension: DEFAULT_EXTENSION_INFO,
              }
            : {
                type: 'hello',
                role: 'mcp',
                protocol: piece.protocol,
                nonce: 'not-a-nonce',
              };
        parts.push(jsonFrame(hello));
        return;
      }
    }
  });
  return { bytes: Buffer.concat(parts), requestIds };
}

export type StopKind =
  /** A header announcing more than the link's cap. */
  | 'too-large'
  /** A complete frame that is not UTF-8 JSON. */
  | 'undecodable'
  /** Native link only: a hello the host must refuse (other protocol or role). */
  | 'fatal-hello';

export interface Prediction {
  /** Ids the host must answer exactly once (requests and request-shaped non-envelopes). */
  mustAnswer: Set<string>;
  /**
   * Ids the host may answer (at most once) beyond `mustAnswer`. The host acts on every complete
   * frame before the first bad one however the OS split the stream into reads, so this is empty.
   */
  mayAnswer: Set<string>;
  /** Why the host may stop reading; empty when it must keep reading. */
  stops: Set<StopKind>;
  /** What the first complete frame is (an unauthenticated bridge client's hello slot). */
  firstFrame: 'value' | 'undecodable' | 'none';
  /** Frames that decoded, in order, up to the first stop. */
  values: unknown[];
}

function requestIdOf(raw: unknown): string | number | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const record = raw as Record<string, unknown>;
  if (record.type !== 'request') return null;
  const id = RequestId.safeParse(record.id);
  return id.success ? id.data : null;
}

/**
 * What a correct host does with `bytes` sent on an already-open link: which requests it answers,
 * and whether (and why) it may stop reading.
 */
export function predict(bytes: Buffer, cap: number, options: { nativeLink: boolean }): Prediction {
  const { frames, oversized } = walkFrames(bytes, cap);
  const values: unknown[] = [];
  const ids = new Set<string>();
  const chunks = new Map<string, string[]>();
  let stop: StopKind | null = null;
  let firstFrame: Prediction['firstFrame'] = 'none';
  for (const [index, payload] of frames.entries()) {
    let value: unknown;
    try {
      value = decodePayload(payload);
    } catch {
      if (index === 0) firstFrame = 'undecodable';
      stop = 'undecodable';
      break;
    }
    if (index === 0) firstFrame = 'value';
    values.push(value);
    const parsed = Envelope.safeParse(value);
    if (!parsed.success) {
      const id = requestIdOf(value);
      if (id !== null) ids.add(String(id));
      continue;
    }
    const envelope = parsed.data;
    if (envelope.type === 'request') ids.add(String(envelope.id));
    if (options.nativeLink && envelope.type === 'hello') {
      if (envelope.role !== 'extension' || envelope.protocol !== PROTOCOL_VERSION) {
        stop = 'fatal-hello';
        break;
      }
    }
    if (options.nativeLink && envelope.type === 'chunk') {
      // Only streams built by buildStream complete; they carry a host_status request.
      const parts = chunks.get(envelope.stream) ?? [];
      parts[envelope.seq] = envelope.data;
      chunks.set(envelope.stream, parts);
      const filled = parts.filter((p) => p !== undefined).length;
      if (filled === envelope.total && parts.length === envelope.total) {
        const inner = Envelope.safeParse(JSON.parse(parts.join('')));
        if (inner.success && inner.data.type === 'request') ids.add(String(inner.data.id));
        chunks.delete(envelope.stream);
      }
    }
  }
  const stops = new Set<StopKind>(stop ? [stop] : []);
  if (oversized && stop === null) stops.add('too-large');
  return { mustAnswer: ids, mayAnswer: new Set(), stops, firstFrame, values };
}

/** Complete frames before the first oversized header (or the end), and whether there is one. */
function walkFrames(bytes: Buffer, cap: number): { frames: Buffer[]; oversized: boolean } {
  const frames: Buffer[] = [];
  let offset = 0;
  while (bytes.length - offset >= 4) {
    const length = bytes.readUInt32LE(offset);
    if (length > cap) return { frames, oversized: true };
    if (bytes.length - offset - 4 < length) break;
    frames.push(bytes.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  return { frames, oversized: false };
}

/** Splits `bytes` at the given fractions (0..1), so frames arrive torn across writes. */
export function splitAt(bytes: Buffer, fractions: readonly number[]): Buffer[] {
  const cuts = [...new Set(fractions.map((f) => Math.floor(f * bytes.length)))]
    .filter((c) => c > 0 && c < bytes.length)
    .sort((a, b) => a - b);
  const out: Buffer[] = [];
  let start = 0;
  for (const cut of cuts) {
    out.push(bytes.subarray(start, cut));
    start = cut;
  }
  out.push(bytes.subarray(start));
  return out.filter((b) => b.length > 0);
}
