import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PROTOCOL_VERSION } from '../../constants.js';
import {
  ClientHello,
  ClientProof,
  HostChallenge,
  HostHello,
  type HostInfo,
  LinkError,
} from '../../envelopes.js';
import { type ErrorCode, XipeError } from '../../errors.js';
import { formatZodError } from '../../validation-issues.js';

/**
 * The bridge handshake: both sides prove they hold the shared token without sending it, so a
 * peer that does not hold it learns nothing it could replay (an impostor listening where a
 * client looks gets a random nonce; a client that cannot prove itself gets nothing but the
 * host's proof over a nonce of the host's choosing).
 *
 *   client → host   hello      { nonce: Nc }
 *   host → client   challenge  { nonce: Nh, proof: HMAC(token, "host"   ‖ Nc ‖ Nh) }
 *   client → host   proof      { proof: HMAC(token, "client" ‖ Nc ‖ Nh), client }   (only if the host's proof held)
 *   host → client   hello      { host: HostInfo }                                    (only if the client's proof held)
 *
 * Distinct labels keep either proof from being reflected as the other; fresh nonces on both sides
 * keep a recorded proof from being replayed. Proofs are compared with `timingSafeEqual`. These
 * are pure state machines; the host (`bridge-server.ts`) and the clients (`host-connection.ts`)
 * do the I/O.
 */

type Side = 'host' | 'client';

export const newNonce = (): string => randomBytes(32).toString('hex');

/** HMAC-SHA256 keyed by the token over the side's label and both nonces, lowercase hex. */
export function handshakeProof(token: string, side: Side, clientNonce: string, hostNonce: string): string {
  return createHmac('sha256', token)
    .update(`x-ipe-uiux bridge v${PROTOCOL_VERSION} ${side}\n${clientNonce}\n${hostNonce}`)
    .digest('hex');
}

/** Whether `claimed` is `side`'s proof for these nonces; constant-time in the proof's bytes. */
export function proofHolds(
  token: string,
  side: Side,
  clientNonce: string,
  hostNonce: string,
  claimed: string,
): boolean {
  const expected = Buffer.from(handshakeProof(token, side, clientNonce, hostNonce), 'hex');
  const got = Buffer.from(claimed, 'hex');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** Why the host refuses a client: the code and message it sends, and a reason for its log. */
export interface Refusal {
  code: ErrorCode;
  message: string;
  reason: string;
}

/** The host's side: `hello` yields the challenge to send, `proof` the client once it proved itself. */
export class HostHandshake {
  private clientNonce: string | null = null;
  private readonly hostNonce = newNonce();

  constructor(private readonly token: string) {}

  /** The answer to a client's first frame: the challenge, or a refusal. */
  hello(value: unknown): { challenge: HostChallenge } | { refuse: Refusal } {
    const head = value as { type?: unknown; role?: unknown; protocol?: unknown } | null;
    if (head?.type !== 'hello' || head.role !== 'mcp') {
      return {
        refuse: {
          code: 'UNAUTHORIZED',
          message: 'The first message on the bridge must be a client hello.',
          reason: 'no client hello',
        },
      };
    }
    if (head.protocol !== PROTOCOL_VERSION) {
      return {
        refuse: {
          code: 'PROTOCOL_ERROR',
          message: `Protocol mismatch: client speaks ${String(head.protocol)}, host speaks ${PROTOCOL_VERSION}. Use the same x-ipe-uiux version for the MCP server and the host.`,
          reason: 'protocol mismatch',
        },
      };
    }
    const hello = ClientHello.safeParse(value);
    if (!hello.success) {
      return {
        refuse: {
          code: 'PROTOCOL_ERROR',
          message: `Invalid hello: ${formatZodError(hello.error, value)}`,
          reason: 'invalid hello',
        },
      };
    }
    this.clientNonce = hello.data.nonce;
    const proof = handshakeProof(this.token, 'host', hello.data.nonce, this.hostNonce);
    return { challenge: { type: 'challenge', nonce: this.hostNonce, proof } };
  }

  /** The client, once its proof holds; else a refusal. */
  proof(value: unknown): { client: ClientProof['client'] } | { refuse: Refusal } {
    const claimed = ClientProof.safeParse(value);
    if (!claimed.success || this.clientNonce === null) {
      return {
        refuse: { code: 'UNAUTHORIZED', message: 'Expected the client proof.', reason: 'no client proof' },
      };
    }
    if (!proofHolds(this.token, 'client', this.clientNonce, this.hostNonce, claimed.data.proof)) {
      return {
        refuse: {
          code: 'UNAUTHORIZED',
          message: 'Unauthorized (the client could not prove it holds the token).',
          reason: 'wrong proof',
        },
      };
    }
    return { client: claimed.data.client };
  }
}

/**
 * The client's side: send `hello` first; feed each message from the host to `step`, which yields
 * the proof to send after the host's challenge, then the host's info after its hello. Throws an
 * XipeError (the host's refusal, an unproven host, a protocol mismatch); nothing more may be sent.
 */
export class ClientHandshake {
  readonly hello: ClientHello = { type: 'hello', role: 'mcp', protocol: PROTOCOL_VERSION, nonce: newNonce() };
  private proved = false;

  constructor(
    private readonly token: string,
    private readonly client: ClientProof['client'],
    /** Names the host in errors: `host pid N at <endpoint>`. */
    private readonly where: string,
  ) {}

  step(value: unknown): { send: ClientProof } | { host: HostInfo } {
    const rejected = LinkError.safeParse(value);
    if (rejected.success) throw XipeError.from(rejected.data.error);
    const type = (value as { type?: unknown } | null)?.type;
    if (!this.proved && type === 'challenge') return { send: this.answer(value) };
    if (this.proved && type === 'hello') return { host: this.accept(value) };
    throw new XipeError(
      'PROTOCOL_ERROR',
      `Unexpected message from ${this.where} during the hello (${String(type)}). Use the same x-ipe-uiux version for every process (reinstall with \`x-ipe-uiux install\`).`,
    );
  }

  private answer(value: unknown): ClientProof {
    const challenge = HostChallenge.safeParse(value);
    if (!challenge.success) {
      throw new XipeError(
        'PROTOCOL_ERROR',
        `Invalid challenge from ${this.where}: ${formatZodError(challenge.error, value)}`,
      );
    }
    const { nonce, proof } = challenge.data;
    if (!proofHolds(this.token, 'host', this.hello.nonce, nonce, proof)) {
      throw new XipeError(
        'UNAUTHORIZED',
        `${this.where} could not prove it holds the bridge token, so nothing was sent to it: it is another user's impostor or a host of another XIPE_UIUX_HOME. Check that the MCP server and the browser's host use the same XIPE_UIUX_HOME, then run \`x-ipe-uiux doctor\`.`,
        { reason: 'host proof failed' },
      );
    }
    this.proved = true;
    return {
      type: 'proof',
      proof: handshakeProof(this.token, 'client', this.hello.nonce, nonce),
      client: this.client,
    };
  }

  private accept(value: unknown): HostInfo {
    const hello = HostHello.safeParse(value);
    if (!hello.success) {
      throw new XipeError(
        'PROTOCOL_ERROR',
        `Unexpected first message from ${this.where}: not a host hello. Use the same x-ipe-uiux version for every process (reinstall with \`x-ipe-uiux install\`).`,
      );
    }
    if (hello.data.protocol !== PROTOCOL_VERSION) {
      throw new XipeError(
        'PROTOCOL_ERROR',
        `${this.where} speaks protocol ${hello.data.protocol}, this client ${PROTOCOL_VERSION}: use the same x-ipe-uiux version for both (reinstall with \`x-ipe-uiux install\`).`,
        { host_protocol: hello.data.protocol, protocol: PROTOCOL_VERSION },
      );
    }
    return hello.data.host;
  }
}
