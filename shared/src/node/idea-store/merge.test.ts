import { describe, expect, it } from 'vitest';
import { mergeSessions, SessionData, type SessionRecord } from './merge.js';

const record = (number: number, data: Record<string, unknown>): SessionRecord => ({
  number,
  name: `ref-session-${String(number).padStart(3, '0')}.json`,
  data: SessionData.parse({ source_url: 'https://a.test/', timestamp: '2025-01-01T00:00:00Z', ...data }),
});

describe('mergeSessions', () => {
  const now = new Date('2025-02-02T02:02:02.000Z');

  it('de-duplicates colours and elements by id, later session wins', () => {
    const merged = mergeSessions(
      'idea',
      [
        record(2, {
          colors: [{ id: 'color-001', hex: '#222222' }],
          elements: [{ id: 'elem-002', selector: 'b' }],
        }),
        record(1, {
          colors: [
            { id: 'color-001', hex: '#111111' },
            { id: 'color-002', hex: '#abcdef' },
          ],
          elements: [{ id: 'elem-001', selector: 'a' }],
        }),
      ],
      now,
    );
    expect(merged.colors).toEqual([
      { id: 'color-001', hex: '#222222' },
      { id: 'color-002', hex: '#abcdef' },
    ]);
    expect(merged.elements.map((e) => e.id)).toEqual(['elem-001', 'elem-002']);
  });

  it('takes design_tokens from the latest session that has them', () => {
    const merged = mergeSessions(
      'idea',
      [
        record(1, { design_tokens: { colors: { primary: '#111' } } }),
        record(2, { design_tokens: { colors: { primary: '#222' } } }),
        record(3, { colors: [{ id: 'color-001', hex: '#333' }] }),
        record(4, { design_tokens: {} }),
      ],
      now,
    );
    expect(merged.design_tokens).toEqual({ colors: { primary: '#222' } });
  });

  it('lists unique source urls, the sessions in order and last_updated', () => {
    const merged = mergeSessions(
      'idea',
      [
        record(3, { source_url: 'https://b.test/', session_id: 'abc' }),
        record(1, {}),
        record(2, { source_url: 'https://b.test/' }),
      ],
      now,
    );
    expect(merged.source_urls).toEqual(['https://a.test/', 'https://b.test/']);
    expect(merged.sessions.map((s) => s.file)).toEqual([
      'sessions/ref-session-001.json',
      'sessions/ref-session-002.json',
      'sessions/ref-session-003.json',
    ]);
    expect(merged.sessions[2]?.session_id).toBe('abc');
    expect(merged.last_updated).toBe('2025-02-02T02:02:02.000Z');
    expect(merged.version).toBe('1.0');
  });

  it('reads older or hand-edited sessions leniently and drops items without an id', () => {
    const data = SessionData.parse({ colors: [{ hex: '#fff' }, { id: 'color-009' }], elements: 'oops' });
    const merged = mergeSessions('idea', [{ number: 1, name: 'ref-session-001.json', data }], now);
    expect(merged.colors).toEqual([{ id: 'color-009' }]);
    expect(merged.elements).toEqual([]);
    expect(merged.source_urls).toEqual([]);
  });
});
