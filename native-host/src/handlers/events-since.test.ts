import { describe, expect, it } from 'vitest';
import { eventsSince } from './events-since.js';
import type { HostHandlerContext } from './types.js';

describe('events_since', () => {
  it('answers from the host’s buffer after the seq asked for (0 by default)', async () => {
    const seen: number[] = [];
    const ctx = {
      events: {
        since: (after: number) => {
          seen.push(after);
          return { events: [], dropped: 0, last_seq: 7 };
        },
      },
    } as unknown as HostHandlerContext;
    expect(await eventsSince({ after_seq: 3 }, ctx)).toEqual({ events: [], dropped: 0, last_seq: 7 });
    await eventsSince(undefined, ctx);
    expect(seen).toEqual([3, 0]);
    await expect(eventsSince({ after_seq: -1 }, ctx)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
