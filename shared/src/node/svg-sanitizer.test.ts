import { describe, expect, it } from 'vitest';
import { loadSvgSanitizer } from './svg-sanitizer.js';

// The host keeps one sanitizer for its whole life and runs it on every SVG of every capture. Each
// sanitization parses documents in the same jsdom window; nothing may pile up on that window
// (a DOM whose documents each left listeners behind made every later parse slower, without end).
describe('the host’s SVG sanitizer over a long life', () => {
  const icon = (i: number) =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M${i} 0L24 ${i}Z" fill="#${(i % 4096).toString(16).padStart(3, '0')}"/></svg>`;

  it('sanitizes as fast after a thousand SVGs as at the start', { timeout: 120_000 }, async () => {
    const svg = await loadSvgSanitizer();
    let next = 0;
    // The fastest of a few batches: another process taking the CPU only ever slows a batch down.
    const batchMs = () => {
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 4; round++) {
        const started = performance.now();
        for (let i = 0; i < 20; i++) svg.sanitize(icon(next++));
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    for (let i = 0; i < 60; i++) svg.sanitize(icon(next++)); // warm-up: the JIT, the allow-lists
    const early = batchMs();
    for (let i = 0; i < 1000; i++) svg.sanitize(icon(next++));
    const late = batchMs();
    expect(svg.sanitize(icon(7))).toContain('<path d="M7 0L24 7Z" fill="#007">');
    expect(late, `20 SVGs took ${early.toFixed(1)} ms at first, ${late.toFixed(1)} ms later`).toBeLessThan(
      early * 3 + 10,
    );
  });
});
