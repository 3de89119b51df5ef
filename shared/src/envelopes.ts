import { z } from 'zod';
import { QueueEntry } from './commands/capture-queue.js';
import { ErrorPayload } from './errors.js';

/**
 * Every message on both links (extension↔host over native messaging, MCP server↔host over the
 * bridge socket) is one of these envelopes. Receivers parse with `Envelope` before anything else;
 * the command-specific `params`/`result` are parsed again with the command's own schema.
 */

export const RequestId = z.union([z.number().int(), z.string().min(1).max(128)]);
export type RequestId = z.infer<typeof RequestId>;

export const BrowserInfo = z.object({
  /** Stable per browser profile: `<name>-<random id kept in the profile's storage>`. */
  browser_id: z.string().min(1),
  name: z.string(),
  version: z.string(),
  user_agent: z.string(),
});
export type BrowserInfo = z.infer<typeof BrowserInfo>;

export const ExtensionInfo = z.object({
  id: z.string(),
  version: z.string(),
  /** chrome.userScripts is usable (the per-extension "Allow User Scripts" toggle is on). */
  user_scripts_allowed: z.boolean(),
  browser: BrowserInfo,
});
export type ExtensionInfo = z.infer<typeof ExtensionInfo>;

export const HostInfo = z.object({
  pid: z.number().int(),
  host_version: z.string(),
  protocol: z.number().int(),
  started_at: z.string(),
  endpoint: z.string(),
  log_file: z.string(),
  extension_connected: z.boolean(),
  extension: ExtensionInfo.nullable(),
  /** The caller origin Chrome passed to the host (chrome-extension://<id>/). */
  origin: z.string().nullable(),
  /**
   * The extension's capture queue as it last said (running jobs, then waiting ones); absent
   * before it said anything or with no extension attached.
   */
  capture_queue: z.array(QueueEntry).optional(),
});
export type HostInfo = z.infer<typeof HostInfo>;

/** Every hello says what it is and which protocol version it speaks. */
const hello = { type: z.literal('hello'), protocol: z.number().int() };

export const ExtensionHello = z.object({ ...hello, role: z.literal('extension'), extension: ExtensionInfo });
export type ExtensionHello = z.infer<typeof ExtensionHello>;

/** A fresh random value of the bridge handshake: 32 bytes as lowercase hex. */
const Nonce = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits');
/** An HMAC-SHA256 proof of the bridge handshake, lowercase hex. */
const Proof = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits');

/**
 * A bridge client's first message: a fresh nonce, nothing else. The token never crosses the link:
 * the host answers with a HostChallenge, the client with a ClientProof, and only then does the
 * host send its HostHello (`shared/src/node/bridge/handshake.ts`).
 */
export const ClientHello = z.object({ ...hello, role: z.literal('mcp'), nonce: Nonce });
export type ClientHello = z.infer<typeof ClientHello>;

/** The host's nonce and its proof that it holds the token (HMAC over both nonces). */
export const HostChallenge = z.object({ type: z.literal('challenge'), nonce: Nonce, proof: Proof });
export type HostChallenge = z.infer<typeof HostChallenge>;

/** The client's proof that it holds the token, sent only after the host proved it; who it is. */
export const ClientProof = z.object({
  type: z.literal('proof'),
  proof: Proof,
  client: z.object({
    name: z.string().max(200),
    pid: z.number().int(),
    workspace: z.string().max(4096).optional(),
  }),
});
export type ClientProof = z.infer<typeof ClientProof>;

export const HostHello = z.object({ ...hello, role: z.literal('host'), host: HostInfo });
export type HostHello = z.infer<typeof HostHello>;

export const Hello = z.discriminatedUnion('role', [ExtensionHello, ClientHello, HostHello]);
export type Hello = z.infer<typeof Hello>;

export const Request = z.object({
  type: z.literal('request'),
  id: RequestId,
  command: z.string().min(1).max(100),
  params: z.unknown(),
  /** How long the sender will wait; the receiver may give up earlier with TIMEOUT. */
  timeout_ms: z.number().int().positive().max(600_000).optional(),
});
export type Request = z.infer<typeof Request>;

export const SuccessResponse = z.object({
  type: z.literal('response'),
  id: RequestId,
  ok: z.literal(true),
  result: z.unknown(),
});
export const FailureResponse = z.object({
  type: z.literal('response'),
  id: RequestId,
  ok: z.literal(false),
  error: ErrorPayload,
});
export const Response = z.discriminatedUnion('ok', [SuccessResponse, FailureResponse]);
export type Response = z.infer<typeof Response>;

export const Event = z.object({
  type: z.literal('event'),
  event: z.string().min(1).max(100),
  data: z.unknown(),
  /** Set by a host on capture events it forwards to bridge clients (its ring's sequence number). */
  seq: z.number().int().positive().optional(),
});
export type Event = z.infer<typeof Event>;

/** Sent before closing a link that failed its handshake (wrong token, wrong protocol). */
export const LinkError = z.object({
  type: z.literal('error'),
  error: ErrorPayload,
});
export type LinkError = z.infer<typeof LinkError>;

/**
 * One piece of a host→extension message that would exceed Chrome's 1 MiB cap. `data` pieces of
 * the serialized message, in `seq` order, concatenate to the JSON text of the whole envelope.
 */
export const Chunk = z.object({
  type: z.literal('chunk'),
  stream: z.string().min(1).max(64),
  seq: z.number().int().nonnegative(),
  total: z.number().int().positive().max(4096),
  data: z.string(),
});
export type Chunk = z.infer<typeof Chunk>;

/**
 * Where a request stands while it waits its turn (a capture queued behind others in its window),
 * sent by whoever runs it to whoever asked, under the asker's id; a relay passes it on under its
 * own asker's id. Every receiver pauses its time limit for the request while it is `queued` and
 * counts it again, in full, from `started`: a call never times out because it waited.
 */
export const Progress = z.object({
  type: z.literal('progress'),
  id: RequestId,
  state: z.enum(['queued', 'started']),
  /** "queued behind 2 captures: capture_area of tab 5 (…)". */
  message: z.string().max(4000),
  queued_ms: z.number().int().nonnegative(),
});
export type Progress = z.infer<typeof Progress>;

/** The asker gave up on its request `id`: the receiver stops it (a queued capture leaves the queue). */
export const Cancel = z.object({ type: z.literal('cancel'), id: RequestId });
export type Cancel = z.infer<typeof Cancel>;

/** Keeps the extension's service worker and the link alive; answered with nothing. */
export const Ping = z.object({ type: z.literal('ping') });

/**
 * One discriminated union on `type` (Response and Hello are themselves discriminated by `ok` and
 * `role`): a message is checked against its own variant only, where a plain union tried the
 * variants in turn and built the failures of those that did not match (every response and hello).
 */
export const Envelope = z.discriminatedUnion('type', [
  Request,
  Event,
  LinkError,
  Chunk,
  Ping,
  Response,
  Hello,
  HostChallenge,
  ClientProof,
  Progress,
  Cancel,
]);
export type Envelope = z.infer<typeof Envelope>;
