import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '../sdk.js';

/**
 * A transport decorator between the wire and the SDK server, for the JSON-RPC and MCP lifecycle
 * rules the SDK's server leaves to chance (it stays silent on some, answers others with the wrong
 * code). Each rule in one place, for every transport:
 * - a message that is neither request, notification nor response → -32600, never silence;
 * - a request before the initialize request → refused (-32600), except `ping` (requests sent
 *   right behind initialize, without waiting for its answer, are served in order);
 * - a batch → refused (-32600) unless the session's protocol version still has batches
 *   (2025-03-26 and older; 2025-06-18 dropped them); allowed ones are answered with one array;
 * - every request it let through is tracked until answered, so a stopping server can first
 *   answer what is in flight (`settled`): the SDK drops the answers of requests still running
 *   when it closes, and a client may write its requests and close stdin at once;
 * - an outgoing error carries its text once (the SDK's McpError bakes "MCP error N: " into the
 *   message, and every client adds it again) and a params validation failure is -32602 with a
 *   readable text, not -32603 with a raw dump.
 */

export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** The protocol versions whose JSON-RPC allows batches (2025-06-18 removed them). */
export function batchesAllowed(protocolVersion: string): boolean {
  return protocolVersion < '2025-06-18';
}

/** A transport that can hand over a JSON array (a batch) and send one back: stdio. */
export interface BatchTransport extends Transport {
  onbatch?: (items: unknown[]) => void;
  sendBatch?(messages: JSONRPCMessage[]): Promise<void>;
}

type Id = string | number;
type Kind =
  | { kind: 'request'; id: Id; method: string }
  | { kind: 'notification' }
  | { kind: 'response' }
  | {
      kind: 'invalid';
      id: Id | null;
      why: string;
    };

export function classify(value: unknown): Kind {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', id: null, why: 'a JSON-RPC message must be a JSON object' };
  }
  const m = value as Record<string, unknown>;
  const id = typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id)) ? m.id : null;
  if (m.jsonrpc !== '2.0')
    return { kind: 'invalid', id, why: 'a JSON-RPC message must have "jsonrpc": "2.0"' };
  if ('method' in m) {
    if (typeof m.method !== 'string') return { kind: 'invalid', id, why: '"method" must be a string' };
    if (!('id' in m)) return { kind: 'notification' };
    if (id === null) return { kind: 'invalid', id: null, why: '"id" must be a string or a number' };
    return { kind: 'request', id, method: m.method };
  }
  if (id !== null && ('result' in m || 'error' in m)) return { kind: 'response' };
  return { kind: 'invalid', id, why: 'a request needs "method" (a response needs "result" or "error")' };
}

const errorResponse = (id: Id | null, code: number, message: string): JSONRPCMessage =>
  // JSON-RPC answers an unidentifiable request with id null; the SDK's type has no room for it.
  ({ jsonrpc: '2.0', id, error: { code, message } }) as unknown as JSONRPCMessage;

const SDK_PREFIX = /^MCP error -?\d+: /;

/**
 * Zod's issue list as the SDK passes it on (`JSON.stringify(issues)`, alone or after a prefix such
 * as "Invalid tools/call request: "), made readable: `params.name: expected string, …`.
 */
function readableIssues(message: string): string | null {
  const start = message.search(/\[\s*\{/);
  if (start === -1) return null;
  try {
    const issues = JSON.parse(message.slice(start)) as unknown;
    if (!Array.isArray(issues) || issues.length === 0) return null;
    const parts = issues.map((issue) => {
      const { path, message: text } = issue as { path?: unknown; message?: unknown };
      const where = Array.isArray(path) && path.length > 0 ? path.join('.') : 'the request';
      return `${where}: ${String(text)}`;
    });
    const prefix = message.slice(0, start).replace(SDK_PREFIX, '').trim();
    return `${prefix === '' ? 'Invalid params:' : prefix} ${parts.join('; ')}`;
  } catch {
    return null;
  }
}

/** An outgoing error as the spec wants it; other messages unchanged. */
export function normaliseOutgoing(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  const { code, message: text } = message.error;
  const readable = code === INTERNAL_ERROR || code === INVALID_PARAMS ? readableIssues(text) : null;
  if (readable !== null) return { ...message, error: { code: INVALID_PARAMS, message: readable } };
  if (!SDK_PREFIX.test(text)) return message;
  return { ...message, error: { ...message.error, message: text.replace(SDK_PREFIX, '') } };
}

export class ProtocolGuard implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  /** The version the initialize response agreed on; null until then. */
  protocolVersion: string | null = null;
  private initializeId: Id | null = null;
  private initializeSeen = false;
  /** What the pending initialize asked for: the version of messages sent right behind it. */
  private requestedVersion: string | null = null;
  /** Open batches: the ids still unanswered and the answers so far. */
  private readonly batches: Array<{ waiting: Set<Id>; answers: JSONRPCMessage[] }> = [];
  /** Requests handed to the server and not yet answered. */
  private readonly unanswered = new Set<Id>();
  private onAllAnswered: (() => void) | null = null;

  constructor(private readonly inner: BatchTransport) {
    inner.onmessage = (message, extra) => this.receive(message, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    if (inner.sendBatch !== undefined) inner.onbatch = (items) => this.receiveBatch(items);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const out = normaliseOutgoing(message);
    if (this.initializeId !== null && 'id' in out && out.id === this.initializeId) {
      this.initializeId = null;
      const version =
        'result' in out ? (out.result as { protocolVersion?: unknown }).protocolVersion : undefined;
      if (typeof version === 'string') this.protocolVersion = version;
      // A failed initialize leaves the session uninitialized.
      else this.initializeSeen = false;
    }
    const isAnswer = 'result' in out || 'error' in out;
    const answered = isAnswer && 'id' in out ? out.id : undefined;
    if (answered !== undefined && this.unanswered.delete(answered) && this.unanswered.size === 0) {
      // After this answer is written (below), nothing the client asked for is left.
      queueMicrotask(() => this.onAllAnswered?.());
    }
    if (isAnswer && this.collectBatchAnswer(out)) return;
    return this.inner.send(out, options);
  }

  /** Resolves once every request received so far is answered, or after `maxMs`. */
  async settled(maxMs: number): Promise<void> {
    if (this.unanswered.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.onAllAnswered = resolve;
      timer = setTimeout(resolve, maxMs);
    });
    clearTimeout(timer);
    this.onAllAnswered = null;
  }

  /** One message of `kind`; returns the error to answer with when it must not reach the server. */
  private check(value: unknown, kind: Kind): { id: Id | null; code: number; message: string } | null {
    if (kind.kind === 'invalid')
      return { id: kind.id, code: INVALID_REQUEST, message: `Invalid Request: ${kind.why}` };
    if (kind.kind !== 'request' || this.initializeSeen) return null;
    if (kind.method === 'initialize') {
      this.initializeSeen = true;
      this.initializeId = kind.id;
      const asked = (value as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
      this.requestedVersion = typeof asked === 'string' ? asked : null;
      return null;
    }
    if (kind.method === 'ping') return null;
    return {
      id: kind.id,
      code: INVALID_REQUEST,
      message: `Invalid Request: the session is not initialized; send initialize before ${kind.method}`,
    };
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const kind = classify(message);
    const refused = this.check(message, kind);
    if (refused === null) {
      this.forward(message, kind, extra);
      return;
    }
    this.onerror?.(new Error(refused.message));
    void this.inner
      .send(errorResponse(refused.id, refused.code, refused.message), {
        ...(refused.id !== null ? { relatedRequestId: refused.id } : {}),
      })
      .catch((err: Error) => this.onerror?.(err));
  }

  private receiveBatch(items: unknown[]): void {
    const send = (messages: JSONRPCMessage[]): void => {
      const sendBatch = this.inner.sendBatch?.bind(this.inner);
      if (sendBatch !== undefined) void sendBatch(messages).catch((err: Error) => this.onerror?.(err));
    };
    const version = this.protocolVersion ?? (this.initializeSeen ? this.requestedVersion : null);
    if (version === null || !batchesAllowed(version) || items.length === 0) {
      const why =
        items.length === 0
          ? 'an empty batch'
          : version === null
            ? 'a batch before initialize (initialize must be sent alone)'
            : `a batch: protocol version ${version} has no JSON-RPC batches; send one message per line`;
      send([errorResponse(null, INVALID_REQUEST, `Invalid Request: ${why}`)]);
      return;
    }
    const batch = { waiting: new Set<Id>(), answers: [] as JSONRPCMessage[] };
    const accepted: Array<[JSONRPCMessage, Kind]> = [];
    for (const item of items) {
      const kind = classify(item);
      const refused = this.check(item, kind);
      if (refused !== null) batch.answers.push(errorResponse(refused.id, refused.code, refused.message));
      else {
        if (kind.kind === 'request') batch.waiting.add(kind.id);
        accepted.push([item as JSONRPCMessage, kind]);
      }
    }
    if (batch.waiting.size > 0) this.batches.push(batch);
    else if (batch.answers.length > 0) send(batch.answers);
    for (const [message, kind] of accepted) this.forward(message, kind);
  }

  /** A message `check` let through, `kind` its classification. */
  private forward(message: JSONRPCMessage, kind: Kind, extra?: MessageExtraInfo): void {
    if (kind.kind === 'request') this.unanswered.add(kind.id);
    this.onmessage?.(message, extra);
  }

  private collectBatchAnswer(message: JSONRPCMessage): boolean {
    const id = (message as { id?: Id }).id;
    const index = this.batches.findIndex((b) => id !== undefined && b.waiting.has(id));
    const batch = this.batches[index];
    if (batch === undefined || id === undefined) return false;
    batch.waiting.delete(id);
    batch.answers.push(message);
    if (batch.waiting.size === 0) {
      this.batches.splice(index, 1);
      void this.inner.sendBatch?.(batch.answers).catch((err: Error) => this.onerror?.(err));
    }
    return true;
  }
}
