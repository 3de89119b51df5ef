import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameError } from '#shared/node/framing.js';
import { type ChannelCloseReason, FrameChannel } from './frame-channel.js';

const CAP = 1024;

function header(length: number): Buffer {
  const buf = Buffer.alloc(4);
  buf.writeUInt32LE(length, 0);
  return buf;
}

function channel(onValue: (value: unknown, channel: FrameChannel) => void = () => {}) {
  const input = new PassThrough();
  const values: unknown[] = [];
  const closes: Array<{ reason: ChannelCloseReason; error?: Error }> = [];
  const ch: FrameChannel = new FrameChannel(input, new PassThrough(), CAP, {
    onValue: (value) => {
      values.push(value);
      onValue(value, ch);
    },
    onClose: (reason, error) => closes.push({ reason, error }),
  });
  return { input, values, closes, channel: ch };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FrameChannel', () => {
  it('delivers the good frames of a read before reporting the oversized header that follows them', async () => {
    const { input, values, closes } = channel();
    input.write(Buffer.concat([encodeFrame({ n: 1 }, CAP), encodeFrame({ n: 2 }, CAP), header(CAP + 1)]));
    await tick();
    expect(values).toEqual([{ n: 1 }, { n: 2 }]);
    expect(closes).toHaveLength(1);
    expect(closes[0]?.reason).toBe('desync');
    expect(closes[0]?.error).toBeInstanceOf(FrameError);
    expect(closes[0]?.error?.message).toMatch(/exceeds the 1024-byte cap/);
  });

  it('delivers nothing after a handler stops reading, even from the same read', async () => {
    const { input, values, closes } = channel((_value, ch) => ch.stopReading());
    input.write(Buffer.concat([encodeFrame(1, CAP), encodeFrame(2, CAP), header(CAP + 1)]));
    await tick();
    expect(values).toEqual([1]);
    expect(closes).toEqual([]);
  });
});
