import net from 'node:net';
import { BRIDGE_MAX_FRAME_BYTES } from '../../constants.js';
import type { ClientProof, HostInfo } from '../../envelopes.js';
import { toErrorPayload, XipeError } from '../../errors.js';
import type { EndpointDescriptor } from '../endpoint-descriptor.js';
import { decodePayload, encodeFrame, FrameReader } from '../framing.js';
import type { Logger } from '../logger.js';
import { ClientHandshake } from './handshake.js';
import { LinkLost } from './link-lost.js';

/** A socket past the handshake, and any frames that came with its last step. */
export interface Hello {
  socket: net.Socket;
  reader: FrameReader;
  host: HostInfo;
  rest: Buffer[];
}

/** Connects and completes the hello. LinkLost when the endpoint is not there or hangs up. */
export function helloHost(options: {
  descriptor: EndpointDescriptor;
  token: string;
  client: ClientProof['client'];
  helloTimeoutMs: number;
  logger: Logger;
}): Promise<Hello> {
  const { descriptor } = options;
  const where = `host pid ${descriptor.pid} at ${descriptor.endpoint}`;
  return new Promise<Hello>((resolve, reject) => {
    const reader = new FrameReader(BRIDGE_MAX_FRAME_BYTES);
    const socket = net.connect(descriptor.endpoint);
    let settled = false;
    const fail = (err: XipeError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () =>
        fail(
          new LinkLost(
            `No hello from ${where} within ${options.helloTimeoutMs} ms; the host may be hung: restart the browser.`,
            {
              pid: descriptor.pid,
            },
          ),
        ),
      options.helloTimeoutMs,
    );
    const handshake = new ClientHandshake(options.token, options.client, where);
    socket.once('connect', () => socket.write(encodeFrame(handshake.hello, BRIDGE_MAX_FRAME_BYTES)));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      fail(
        new LinkLost(`Cannot connect to ${where}: ${err.code ?? err.message}`, {
          pid: descriptor.pid,
          reason: err.code,
        }),
      ),
    );
    socket.once('close', () =>
      fail(new LinkLost(`${where} closed the connection during the hello`, { pid: descriptor.pid })),
    );
    const onData = (chunk: Buffer): void => {
      let frames: Buffer[];
      try {
        frames = reader.push(chunk);
      } catch (err) {
        fail(new XipeError('PROTOCOL_ERROR', `Unreadable hello from ${where}: ${(err as Error).message}`));
        return;
      }
      for (const [index, frame] of frames.entries()) {
        let value: unknown;
        try {
          value = decodePayload(frame);
        } catch (err) {
          fail(new XipeError('PROTOCOL_ERROR', `Unreadable hello from ${where}: ${(err as Error).message}`));
          return;
        }
        let step: ReturnType<ClientHandshake['step']>;
        try {
          step = handshake.step(value);
        } catch (err) {
          const error = XipeError.from(toErrorPayload(err));
          if (error.code === 'UNAUTHORIZED')
            options.logger.warn('host refused or unproven', { where, error: error.message });
          fail(
            XipeError.from({
              ...toErrorPayload(error),
              details: { ...error.details, pid: descriptor.pid },
            }),
          );
          return;
        }
        if ('send' in step) {
          socket.write(encodeFrame(step.send, BRIDGE_MAX_FRAME_BYTES));
          continue;
        }
        settled = true;
        clearTimeout(timer);
        socket.off('data', onData);
        socket.removeAllListeners('error');
        socket.removeAllListeners('close');
        resolve({ socket, reader, host: step.host, rest: frames.slice(index + 1) });
        return;
      }
    };
    socket.on('data', onData);
  });
}
