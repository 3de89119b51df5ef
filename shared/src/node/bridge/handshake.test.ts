import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../constants.js';
import { XipeError } from '../../errors.js';
import { ClientHandshake, HostHandshake } from './handshake.js';

const TOKEN = randomBytes(32).toString('hex');
const CLIENT = { name: 'x-ipe-uiux-mcp', pid: 7, workspace: '/ws' };
const WHERE = 'host pid 1 at /run/h-1.sock';

/** Both ends over a "wire" of JSON text, as the sockets carry it; returns every message sent. */
function run(clientToken: string, hostToken: string) {
  const wire: string[] = [];
  const send = <T>(message: T): T => {
    const text = JSON.stringify(message);
    wire.push(text);
    return JSON.parse(text) as T;
  };
  const client = new ClientHandshake(clientToken, CLIENT, WHERE);
  const host = new HostHandshake(hostToken);
  const answer = host.hello(send(client.hello));
  if ('refuse' in answer) return { wire, outcome: answer.refuse };
  let step: ReturnType<ClientHandshake['step']>;
  try {
    step = client.step(send(answer.challenge));
  } catch (err) {
    return { wire, outcome: err as XipeError };
  }
  if (!('send' in step)) throw new Error('expected a proof');
  const verdict = host.proof(send(step.send));
  return { wire, outcome: verdict };
}

/** The proofs computed independently of the module: HMAC-SHA256 over the label and both nonces. */
const hmac = (token: string, side: string, cn: string, hn: string): string =>
  createHmac('sha256', token)
    .update(`x-ipe-uiux bridge v${PROTOCOL_VERSION} ${side}\n${cn}\n${hn}`)
    .digest('hex');

describe('bridge handshake', () => {
  it('authenticates both ways with the same token, and the token never crosses the wire', () => {
    const { wire, outcome } = run(TOKEN, TOKEN);
    expect(outcome).toEqual({ client: CLIENT });
    const [hello, challenge, proof] = wire.map((m) => JSON.parse(m));
    expect(hello).toEqual({
      type: 'hello',
      role: 'mcp',
      protocol: PROTOCOL_VERSION,
      nonce: expect.any(String),
    });
    expect(challenge.proof).toBe(hmac(TOKEN, 'host', hello.nonce, challenge.nonce));
    expect(proof.proof).toBe(hmac(TOKEN, 'client', hello.nonce, challenge.nonce));
    expect(proof.proof).not.toBe(challenge.proof);
    const everything = wire.join('\n');
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(Buffer.from(TOKEN).toString('base64'));
  });

  it('uses fresh nonces on both sides for every handshake', () => {
    const a = run(TOKEN, TOKEN).wire.map((m) => JSON.parse(m));
    const b = run(TOKEN, TOKEN).wire.map((m) => JSON.parse(m));
    expect(a[0].nonce).not.toBe(b[0].nonce);
    expect(a[1].nonce).not.toBe(b[1].nonce);
    expect(a[0].nonce).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the client refuses a host with another token and sends it nothing more (no proof, no name)', () => {
    const { wire, outcome } = run(TOKEN, randomBytes(32).toString('hex'));
    expect(outcome).toBeInstanceOf(XipeError);
    expect((outcome as XipeError).code).toBe('UNAUTHORIZED');
    expect((outcome as XipeError).message).toMatch(
      /could not prove it holds the bridge token, so nothing was sent/,
    );
    expect(wire).toHaveLength(2); // hello, challenge: no proof
    expect(wire.join('\n')).not.toContain(CLIENT.workspace);
  });

  it('the host refuses a client with another token', () => {
    // The client cannot verify the host with a wrong token either, so drive the host directly.
    const host = new HostHandshake(TOKEN);
    const cn = randomBytes(32).toString('hex');
    const answer = host.hello({ type: 'hello', role: 'mcp', protocol: PROTOCOL_VERSION, nonce: cn });
    if (!('challenge' in answer)) throw new Error('expected a challenge');
    const wrong = hmac(randomBytes(32).toString('hex'), 'client', cn, answer.challenge.nonce);
    expect(host.proof({ type: 'proof', proof: wrong, client: CLIENT })).toEqual({
      refuse: expect.objectContaining({ code: 'UNAUTHORIZED', reason: 'wrong proof' }),
    });
  });

  it('refuses a reflected proof, a replayed proof and a proof before the hello', () => {
    const host = new HostHandshake(TOKEN);
    const cn = randomBytes(32).toString('hex');
    const answer = host.hello({ type: 'hello', role: 'mcp', protocol: PROTOCOL_VERSION, nonce: cn });
    if (!('challenge' in answer)) throw new Error('expected a challenge');
    // The host's own proof sent back as the client's.
    expect(host.proof({ type: 'proof', proof: answer.challenge.proof, client: CLIENT })).toHaveProperty(
      'refuse',
    );
    // A client proof recorded from another session (another host nonce).
    const old = hmac(TOKEN, 'client', cn, randomBytes(32).toString('hex'));
    expect(new HostHandshake(TOKEN).proof({ type: 'proof', proof: old, client: CLIENT })).toHaveProperty(
      'refuse',
    );
    expect(host.proof({ type: 'proof', proof: old, client: CLIENT })).toHaveProperty('refuse');

    // An impostor replaying a real host's challenge to another client: that client's nonce differs.
    const client = new ClientHandshake(TOKEN, CLIENT, WHERE);
    expect(() => client.step(answer.challenge)).toThrow(/could not prove/);
  });

  it('tells a protocol mismatch (including an old hello that carries a token) from a wrong token', () => {
    const host = new HostHandshake(TOKEN);
    const old = { type: 'hello', role: 'mcp', protocol: 1, token: TOKEN, client: CLIENT };
    expect(host.hello(old)).toEqual({ refuse: expect.objectContaining({ code: 'PROTOCOL_ERROR' }) });
    expect(JSON.stringify(host.hello(old))).not.toContain(TOKEN);
    expect(host.hello({ type: 'request', id: 1 })).toEqual({
      refuse: expect.objectContaining({ code: 'UNAUTHORIZED' }),
    });
    const bad = { type: 'hello', role: 'mcp', protocol: PROTOCOL_VERSION, nonce: 'short' };
    expect(host.hello(bad)).toEqual({ refuse: expect.objectContaining({ code: 'PROTOCOL_ERROR' }) });
  });

  it('the client passes on a host refusal and refuses a host hello before the challenge', () => {
    const refused = new ClientHandshake(TOKEN, CLIENT, WHERE);
    expect(() =>
      refused.step({ type: 'error', error: { code: 'PROTOCOL_ERROR', message: 'Protocol mismatch' } }),
    ).toThrow(/Protocol mismatch/);
    const skipped = new ClientHandshake(TOKEN, CLIENT, WHERE);
    const hostHello = { type: 'hello', role: 'host', protocol: PROTOCOL_VERSION, host: {} };
    expect(() => skipped.step(hostHello)).toThrow(/Unexpected message .* during the hello/);
  });
});
