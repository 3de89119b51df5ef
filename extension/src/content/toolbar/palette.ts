import type { ColorRole } from '../../../../shared/src/design-tokens.js';
import { parseHex, type Rgba, toHex, toHsl } from './color.js';

/** Where a colour was seen on the page. */
export type ColorUsage = 'background' | 'text' | 'border' | 'fill';

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

function saturation(hex: string): number {
  const c = parseHex(hex);
  return c ? toHsl(c).s : 0;
}

/**
 * First-guess roles for a page palette: the most used background and text colours, then the
 * most used saturated colours as primary, secondary, accent. The designer can change every one.
 */
export function suggestRoles(palette: readonly PaletteEntry[]): Map<string, ColorRole> {
  const roles = new Map<string, ColorRole>();
  const byUsage = (u: ColorUsage) => [...palette].sort((a, b) => b.usage[u] - a.usage[u]);
  const bg = byUsage('background')[0];
  if (bg && bg.usage.background > 0) roles.set(bg.hex, 'background');
  const text = byUsage('text').find((e) => !roles.has(e.hex) && e.usage.text > 0);
  if (text) roles.set(text.hex, 'text');
  const brand = palette.filter((e) => !roles.has(e.hex) && saturation(e.hex) >= 35);
  const order: ColorRole[] = ['primary', 'secondary', 'accent'];
  brand.slice(0, 3).forEach((e, i) => {
    const role = order[i];
    if (role) roles.set(e.hex, role);
  });
  return roles;
}
