import type { ColorRole } from './design-tokens.js';

/**
 * First-guess palette roles, one rule for the toolbar's palette (content/toolbar/palette.ts) and
 * for the colours of a deep-captured area (deep-capture/area-tokens.ts): the most used background
 * and text colours, then the most used saturated colours as primary, secondary, accent. The
 * designer can change every one; an agent reads them as guesses.
 */

/** Where a colour was seen on the page. */
export type ColorUsage = 'background' | 'text' | 'border' | 'fill';

export interface UsedColor {
  /** `#rrggbb` (or `#rrggbbaa`). */
  hex: string;
  /** How often it was seen in each use. */
  usage: Record<ColorUsage, number>;
}

/** Saturation in percent (HSL), 0 for anything that is not `#rrggbb…`. */
function saturation(hex: string): number {
  const m = /^#([0-9a-f]{6})/i.exec(hex);
  if (m?.[1] === undefined) return 0;
  const [r = 0, g = 0, b = 0] = [0, 2, 4].map((i) => Number.parseInt(m[1]?.slice(i, i + 2) ?? '0', 16) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return 0;
  const l = (max + min) / 2;
  return Math.round(((max - min) / (1 - Math.abs(2 * l - 1))) * 100);
}

/** Roles a palette has one colour for; `custom` may name any number. */
const SINGLE_ROLES: readonly ColorRole[] = ['background', 'text', 'primary', 'secondary', 'accent'];

/**
 * `palette` most used first; the roles it suggests, by hex. `given` are roles already decided (the
 * designer's, for colours of this palette): they are kept, and the guesses fill only the colours
 * and the roles they leave free, so no two colours come out `primary`.
 */
export function suggestRoles(
  palette: readonly UsedColor[],
  given: ReadonlyMap<string, ColorRole> = new Map(),
): Map<string, ColorRole> {
  const roles = new Map<string, ColorRole>(given);
  const taken = new Set<ColorRole>([...given.values()].filter((r) => SINGLE_ROLES.includes(r)));
  const free = (e: UsedColor) => !roles.has(e.hex);
  const byUsage = (u: ColorUsage) => [...palette].sort((a, b) => b.usage[u] - a.usage[u]);
  const bg = byUsage('background')[0];
  if (!taken.has('background') && bg && free(bg) && bg.usage.background > 0) roles.set(bg.hex, 'background');
  const text = byUsage('text').find((e) => free(e) && e.usage.text > 0);
  if (!taken.has('text') && text) roles.set(text.hex, 'text');
  const brand = palette.filter((e) => free(e) && saturation(e.hex) >= 35);
  const order = (['primary', 'secondary', 'accent'] as const).filter((r) => !taken.has(r));
  brand.slice(0, order.length).forEach((e, i) => {
    const role = order[i];
    if (role) roles.set(e.hex, role);
  });
  return roles;
}
