import type { ColorUsage } from '#shared/palette-roles.js';
import { type Rgba, toHex } from './color.js';

// The role guess is shared with the deep capture's area tokens: one rule for both.
export { type ColorUsage, suggestRoles } from '#shared/palette-roles.js';

export interface PaletteEntry {
  hex: string;
  count: number;
  usage: Record<ColorUsage, number>;
  /** A selector of one element using it (for `source_selector`). */
  example: string | null;
}

/** Counts colours in use; fully transparent samples are ignored, translucent ones counted as opaque hex. */
export class PaletteCounter {
  private readonly entries = new Map<string, PaletteEntry>();

  add(color: Rgba, usage: ColorUsage, example: string | null = null, weight = 1): void {
    if (color.a === 0) return;
    const hex = toHex(color);
    let e = this.entries.get(hex);
    if (!e) {
      e = { hex, count: 0, usage: { background: 0, text: 0, border: 0, fill: 0 }, example };
      this.entries.set(hex, e);
    }
    e.count += weight;
    e.usage[usage] += weight;
  }

  /** Most used first; ties broken by hex so the order is stable. */
  entriesByCount(limit = 48): PaletteEntry[] {
    return [...this.entries.values()]
      .sort((a, b) => b.count - a.count || a.hex.localeCompare(b.hex))
      .slice(0, limit);
  }
}
