import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { BRIDGE_MAX_FRAME_BYTES, PROTOCOL_VERSION } from '../../shared/src/constants.js';
import { type ClientHello, Envelope, type HostInfo, type Response } from '../../shared/src/envelopes.js';
import type { ErrorPayload } from '../../shared/src/errors.js';
import { EndpointDescriptor } from '../../shared/src/node/endpoint-descriptor.js';
import { decodePayload, encodeFrame, FrameReader } from '../../shared/src/node/framing.js';
import { runtimeDir } from '../../shared/src/node/paths.js';
import { pidAlive } from '../../shared/src/node/pid.js';

/**
 * The CLI's own small bridge client (doctor and start): find host descriptors, connect, say hello
 * with the token, read the host's hello (HostInfo), optionally send one request. The MCP server
 * has the full client; processes do not import each other's folders.
 */

export interface LiveDescriptor {
  file: string;
  descriptor: EndpointDescriptor;
}

export interface DescriptorScan {
  dir: string;
  live: LiveDescriptor[];
  /** Descriptor files that do not parse or whose pid is gone (left for the hosts to clean up). */
  stale: string[];
}

/** Lists host descriptors in the runtime dir; never throws (a missing dir is an empty scan). */
export function scanDescriptors(home: string): DescriptorScan {
  const dir = runtimeDir(home);
  const scan: DescriptorScan = { dir, live: [], stale: [] };
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return scan;
  }
  for (const name of names.filter((n) => /^h-\d+\.json$/.test(n)).sort()) {
    const file = path.join(dir, name);
    try {
      const descriptor = EndpointDescriptor.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
      if (pidAlive(descriptor.pid)) scan.live.push({ file, descriptor });
      else scan.stale.push(file);
    } catch {
      scan.stale.push(file);
    }
  }
  return scan;
}

export type ProbeOutcome =
  | { ok: true; host: HostInfo; response?: Response }
  | { ok: false; error: ErrorPayload };

/**
 * Connects to one host endpoint, authenticates, returns its HostInfo; with `request`, also sends
 * that command and returns its response. Always closes the connection. Never throws.
 */
export function probeHost(
  endpoint: string,
  token: string,
  options: { timeoutMs?: number; request?: { command: string; params: unknown; timeout_ms?: number } } = {},
): Promise<ProbeOutcome> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise((resolve) => {
    let settled = false;
    let host: HostInfo | null = null;
    const reader = new FrameReader(BRIDGE_MAX_FRAME_BYTES);
    const socket = net.connect(endpoint);
    const finish = (outcome: ProbeOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          error: { code: 'TIMEOUT', message: `no answer from ${endpoint} within ${timeoutMs} ms` },
        }),
      timeoutMs,
    );
    socket.on('error', (err) =>
      finish({
        ok: false,
        error: { code: 'BACKEND_UNREACHABLE', message: `cannot connect to ${endpoint}: ${err.message}` },
      }),
    );
    socket.on('close', () =>
      finish({
        ok: false,
        error: { code: 'BACKEND_UNREACHABLE', message: `${endpoint} closed the connection` },
      }),
    );
    socket.on('connect', () => {
      const hello: ClientHello = {
        type: 'hello',
        role: 'mcp',
        protocol: PROTOCOL_VERSION,
        token,
        client: { name: 'x-ipe-uiux-cli', pid: process.pid },
      };
      socket.write(encodeFrame(hello, BRIDGE_MAX_FRAME_BYTES));
    });
    socket.on('data', (chunk: Buffer) => {
      let payloads: Buffer[];
      try {
        payloads = reader.push(chunk);
      } catch (err) {
        finish({ ok: false, error: { code: 'PROTOCOL_ERROR', message: (err as Error).message } });
        return;
      }
      for (const payload of payloads) {
        let parsed: ReturnType<typeof Envelope.safeParse>;
        try {
          parsed = Envelope.safeParse(decodePayload(payload));
        } catch (err) {
          finish({ ok: false, error: { code: 'PROTOCOL_ERROR', message: (err as Error).message } });
          return;
        }
        if (!parsed.success) continue;
        const message = parsed.data;
        if (message.type === 'error') {
          finish({ ok: false, error: message.error });
          return;
        }
        if (message.type === 'hello' && message.role === 'host') {
          if (message.protocol !== PROTOCOL_VERSION) {
            finish({
              ok: false,
              error: {
                code: 'PROTOCOL_ERROR',
                message: `host speaks protocol ${message.protocol}, this CLI ${PROTOCOL_VERSION}: use one x-ipe-uiux version`,
              },
            });
            return;
          }
          host = message.host;
          if (options.request === undefined) {
            finish({ ok: true, host });
            return;
          }
          socket.write(
            encodeFrame({ type: 'request', id: 'cli-1', ...options.request }, BRIDGE_MAX_FRAME_BYTES),
          );
          continue;
        }
        if (message.type === 'response' && message.id === 'cli-1' && host !== null) {
          finish({ ok: true, host, response: message });
          return;
        }
      }
    });
  });
}
