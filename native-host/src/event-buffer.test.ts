import { describe, expect, it } from 'vitest';
import { EventBuffer } from './event-buffer.js';

const picked = (n: number) => ({
  tab_id: 3,
  page_url: 'https://x.test/',
  at: `2025-01-01T00:00:0${n % 10}.000Z`,
  key: `k${n}`,
  kind: 'element',
  selector: 'h1',
  tag: 'h1',
  bounding_box: { x: 0, y: 0, width: 1, height: 1 },
  crop: { width: 1, height: 1 },
});

describe('EventBuffer', () => {
  it('numbers capture events, moves tab and time out of data, and drops unknown keys (image bytes)', () => {
    const buffer = new EventBuffer();
    const stored = buffer.add(
      'element_picked',
      { ...picked(1), png: 'iVBORw0KGgo', data_url: 'data:image/png' },
      'chromium-a',
    );
    expect(stored).toEqual({
      seq: 1,
      type: 'element_picked',
      time: '2025-01-01T00:00:01.000Z',
      browser_id: 'chromium-a',
      tab: { id: 3, url: 'https://x.test/' },
      data: {
        key: 'k1',
        kind: 'element',
        selector: 'h1',
        tag: 'h1',
        bounding_box: { x: 0, y: 0, width: 1, height: 1 },
        crop: { width: 1, height: 1 },
      },
    });
  });

  it('refuses other events and invalid data without using a seq', () => {
    const buffer = new EventBuffer();
    expect(buffer.add('something_else', {}, null)).toBeNull();
    expect(buffer.add('color_picked', { hex: '#fff' }, null)).toBeNull();
    expect(buffer.last).toBe(0);
    expect(
      buffer.add('note_added', { tab_id: 1, page_url: 'u', at: 't', key: 'k', comment: null }, null)?.seq,
    ).toBe(1);
  });

  it('answers since(n) oldest first and counts what fell out of the ring', () => {
    const buffer = new EventBuffer(3);
    for (let i = 1; i <= 5; i++) buffer.add('element_picked', picked(i), 'b');
    expect(buffer.size).toBe(3);
    expect(buffer.since(0)).toMatchObject({ dropped: 2, last_seq: 5 });
    expect(buffer.since(0).events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(buffer.since(1)).toMatchObject({ dropped: 1 });
    expect(buffer.since(3).events.map((e) => e.seq)).toEqual([4, 5]);
    expect(buffer.since(3).dropped).toBe(0);
    expect(buffer.since(5)).toEqual({ events: [], dropped: 0, last_seq: 5 });
    // A cursor from the future (another host of the same name): everything.
    expect(buffer.since(99).events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(new EventBuffer().since(0)).toEqual({ events: [], dropped: 0, last_seq: 0 });
  });
});
