import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger.js';

describe('logger.batch', () => {
  let dir: string | null = null;
  afterEach(() => {
    vi.restoreAllMocks();
    if (dir !== null) fs.rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  const setup = () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-logger-'));
    const file = path.join(dir, 'logs', 'x.log');
    const stderr = new PassThrough();
    const chunks: string[] = [];
    stderr.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const logger = createLogger({ component: 'test', file, stderr, level: 'info' });
    const lines = () =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { msg: string; n?: number });
    return { logger, chunks, lines };
  };

  it('writes the lines logged inside it in one write to the file and one to stderr, in order', () => {
    const { logger, chunks, lines } = setup();
    const writes = vi.spyOn(fs, 'writeSync');
    logger.batch?.(() => {
      for (let n = 0; n < 3; n += 1) logger.info('line', { n });
      logger.debug('below the level'); // dropped as outside a batch
      expect(writes).not.toHaveBeenCalled();
    });
    expect(writes).toHaveBeenCalledTimes(1);
    expect(lines().map((l) => l.n)).toEqual([0, 1, 2]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.split('\n').filter((l) => l !== '')).toHaveLength(3);
  });

  it('still writes what was logged when the batch throws, and logs at once outside a batch', () => {
    const { logger, lines } = setup();
    expect(() =>
      logger.batch?.(() => {
        logger.info('before the throw');
        logger.batch?.(() => logger.info('nested'));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(lines().map((l) => l.msg)).toEqual(['before the throw', 'nested']);
    logger.info('alone');
    expect(lines().map((l) => l.msg)).toEqual(['before the throw', 'nested', 'alone']);
  });
});
