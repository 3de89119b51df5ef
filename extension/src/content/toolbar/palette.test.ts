import { describe, expect, it } from 'vitest';
import { parseHex, type Rgba } from './color.js';
import { PaletteCounter, suggestRoles } from './palette.js';

const hex = (h: string): Rgba => {
  const c = parseHex(h);
  if (!c) throw new Error(h);
  return c;
};

describe('PaletteCounter', () => {
  it('counts colours by usage and sorts by count', () => {
    const p = new PaletteCounter();
    p.add(hex('#ffffff'), 'background', 'body');
    p.add(hex('#ffffff'), 'background');
    p.add(hex('#111827'), 'text', 'h1');
    p.add(hex('#111827'), 'text');
    p.add(hex('#111827'), 'border');
    p.add({ r: 0, g: 0, b: 0, a: 0 }, 'background');
    const entries = p.entriesByCount();
    expect(entries.map((e) => [e.hex, e.count])).toEqual([
      ['#111827', 3],
      ['#ffffff', 2],
    ]);
    expect(entries[0]?.usage).toEqual({ background: 0, text: 2, border: 1, fill: 0 });
    expect(entries[0]?.example).toBe('h1');
  });
  it('caps the list', () => {
    const p = new PaletteCounter();
    for (let i = 0; i < 100; i++) p.add({ r: i, g: 0, b: 0, a: 1 }, 'fill');
    expect(p.entriesByCount(10)).toHaveLength(10);
  });
});

describe('suggestRoles', () => {
  it('assigns background, text, then saturated colours as primary/secondary/accent', () => {
    const p = new PaletteCounter();
    for (let i = 0; i < 10; i++) p.add(hex('#ffffff'), 'background');
    for (let i = 0; i < 8; i++) p.add(hex('#1f2937'), 'text');
    for (let i = 0; i < 5; i++) p.add(hex('#2563eb'), 'background');
    for (let i = 0; i < 4; i++) p.add(hex('#9ca3af'), 'border');
    for (let i = 0; i < 3; i++) p.add(hex('#f59e0b'), 'fill');
    p.add(hex('#db2777'), 'text');
    const roles = suggestRoles(p.entriesByCount());
    expect(Object.fromEntries(roles)).toEqual({
      '#ffffff': 'background',
      '#1f2937': 'text',
      '#2563eb': 'primary',
      '#f59e0b': 'secondary',
      '#db2777': 'accent',
    });
  });
});
