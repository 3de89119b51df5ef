import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands/index.js';
import { PROTOCOL_VERSION } from './constants.js';
import { Envelope, ExtensionHello } from './envelopes.js';
import { toErrorPayload, validationError, XipeError } from './errors.js';

const extension = {
  id: 'gkajpnmdfljgjhdbkbldnadecmdplglg',
  version: '0.1.0',
  user_scripts_allowed: false,
  browser: { browser_id: 'chromium-abc', name: 'Chromium', version: '156', user_agent: 'UA' },
};
const host = {
  pid: 42,
  host_version: '0.1.0',
  protocol: PROTOCOL_VERSION,
  started_at: '2026-01-01T00:00:00.000Z',
  endpoint: '/tmp/x/h-42.sock',
  log_file: '/tmp/x/logs/host.log',
  extension_connected: true,
  extension,
  origin: null,
};

describe('Envelope', () => {
  const valid: Array<[string, unknown]> = [
    ['extension hello', { type: 'hello', role: 'extension', protocol: 1, extension }],
    ['client hello', { type: 'hello', role: 'mcp', protocol: 2, nonce: 'a'.repeat(64) }],
    ['host challenge', { type: 'challenge', nonce: '0'.repeat(64), proof: 'f'.repeat(64) }],
    ['client proof', { type: 'proof', proof: '1'.repeat(64), client: { name: 'mcp', pid: 1 } }],
    ['host hello', { type: 'hello', role: 'host', protocol: 1, host }],
    ['request', { type: 'request', id: 1, command: 'list_tabs', params: {}, timeout_ms: 1000 }],
    [
      'request with string id, null params',
      { type: 'request', id: 'c-1', command: 'host_status', params: null },
    ],
    ['success', { type: 'response', id: 'c-1', ok: true, result: { anything: [1] } }],
    ['failure', { type: 'response', id: 3, ok: false, error: { code: 'TIMEOUT', message: 'late' } }],
    ['event', { type: 'event', event: 'captures_changed', data: null }],
    ['link error', { type: 'error', error: { code: 'UNAUTHORIZED', message: 'no' } }],
    ['chunk', { type: 'chunk', stream: 's', seq: 0, total: 1, data: '{}' }],
    ['ping', { type: 'ping' }],
  ];
  it.each(valid)('accepts a %s', (_name, message) => {
    expect(Envelope.safeParse(message).success).toBe(true);
  });

  const invalid: Array<[string, unknown]> = [
    ['unknown type', { type: 'shout' }],
    ['hello with unknown role', { type: 'hello', role: 'admin', protocol: 1 }],
    ['client hello without nonce', { type: 'hello', role: 'mcp', protocol: 2 }],
    ['client hello with a short nonce', { type: 'hello', role: 'mcp', protocol: 2, nonce: 'a'.repeat(63) }],
    [
      'client hello with an upper-case nonce',
      { type: 'hello', role: 'mcp', protocol: 2, nonce: 'A'.repeat(64) },
    ],
    ['challenge without proof', { type: 'challenge', nonce: '0'.repeat(64) }],
    ['proof that is not hex', { type: 'proof', proof: 'z'.repeat(64), client: { name: 'x', pid: 1 } }],
    ['proof without client', { type: 'proof', proof: '1'.repeat(64) }],
    // JSON drops undefined, and zod 4 requires the key: senders must always write params/result/data.
    ['request without params', { type: 'request', id: 1, command: 'x' }],
    ['success without result', { type: 'response', id: 1, ok: true }],
    ['event without data', { type: 'event', event: 'e' }],
    ['request with fractional id', { type: 'request', id: 1.5, command: 'x' }],
    ['request with empty id', { type: 'request', id: '', command: 'x' }],
    ['request with a huge timeout', { type: 'request', id: 1, command: 'x', timeout_ms: 10_000_000 }],
    ['request with zero timeout', { type: 'request', id: 1, command: 'x', timeout_ms: 0 }],
    [
      'failure with unknown code',
      { type: 'response', id: 1, ok: false, error: { code: 'OOPS', message: '' } },
    ],
    ['failure without error', { type: 'response', id: 1, ok: false }],
    ['chunk with too many parts', { type: 'chunk', stream: 's', seq: 0, total: 5000, data: '' }],
    ['chunk with negative seq', { type: 'chunk', stream: 's', seq: -1, total: 1, data: '' }],
    ['non-object', 'hello'],
    ['null', null],
  ];
  it.each(invalid)('rejects %s', (_name, message) => {
    expect(Envelope.safeParse(message).success).toBe(false);
  });

  it('tells an extension hello from a client hello', () => {
    const parsed = Envelope.parse({ type: 'hello', role: 'extension', protocol: 1, extension });
    expect(parsed.type === 'hello' && parsed.role).toBe('extension');
    expect(ExtensionHello.safeParse({ type: 'hello', role: 'mcp', protocol: 1, extension }).success).toBe(
      false,
    );
  });
});

describe('COMMANDS', () => {
  it('names each command in snake_case and says who handles it', () => {
    for (const [name, spec] of Object.entries(COMMANDS)) {
      expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(['host', 'extension']).toContain(spec.handledBy);
    }
  });
});

describe('errors', () => {
  it('maps anything thrown to an ErrorPayload', () => {
    expect(toErrorPayload(new XipeError('TIMEOUT', 'late', { ms: 1 }))).toEqual({
      code: 'TIMEOUT',
      message: 'late',
      details: { ms: 1 },
    });
    expect(toErrorPayload(new Error('boom'))).toEqual({ code: 'INTERNAL_ERROR', message: 'boom' });
    expect(toErrorPayload({ code: 'WRITE_ERROR', message: 'disk' })).toEqual({
      code: 'WRITE_ERROR',
      message: 'disk',
    });
    expect(toErrorPayload('weird')).toEqual({ code: 'INTERNAL_ERROR', message: 'weird' });
  });

  it('names the failing field in a VALIDATION_ERROR', () => {
    const result = Envelope.safeParse({ type: 'request', id: 1, command: '' });
    expect(result.success).toBe(false);
    if (!result.success) {
      const err = validationError(result.error, 'request', { type: 'request', id: 1, command: '' });
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.message).toMatch(/^Invalid request: /);
    }
  });
});
