import { describe, expect, it } from 'vitest';
import { SentScripts } from './sent-scripts.js';

describe('SentScripts', () => {
  it('remembers hashes per browser and forgets on request', () => {
    const sent = new SentScripts();
    sent.add('', 'a');
    sent.add('chrome-1', 'b');
    expect(sent.has('', 'a')).toBe(true);
    expect(sent.has('', 'b')).toBe(false);
    expect(sent.has('chrome-1', 'b')).toBe(true);
    sent.forget('', 'a');
    expect(sent.has('', 'a')).toBe(false);
  });

  it('keeps the most recent hashes and browsers within its bounds', () => {
    const sent = new SentScripts(2, 2);
    sent.add('', 'a');
    sent.add('', 'b');
    sent.add('', 'a'); // a is the most recent again
    sent.add('', 'c');
    expect([sent.has('', 'a'), sent.has('', 'b'), sent.has('', 'c')]).toEqual([true, false, true]);
    sent.add('x', 'h');
    sent.add('y', 'h');
    expect(sent.has('', 'a')).toBe(false); // the oldest browser was dropped
    expect(sent.has('x', 'h') && sent.has('y', 'h')).toBe(true);
  });
});
