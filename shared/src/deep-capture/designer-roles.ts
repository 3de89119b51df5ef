import { differenceCiede2000, parse } from 'culori';
import type { ColorRole } from '../design-tokens.js';

/**
 * The designer's roles for an area's colours. A colour the designer picked and named in the same
 * toolbar session ("secondary") is that role wherever it shows up, so the area's summary and tokens
 * say what the pick said instead of the palette's guess. A picked pixel and the CSS value of the
 * same colour can differ by a step of rounding or a blend at an edge, so a colour within a
 * difference the eye barely sees (CIEDE2000 ≤ SAME_COLOUR_DELTA_E) counts as the same; the closest
 * pick wins.
 */

export interface DesignerColor {
  hex: string;
  role: ColorRole;
}

/** Largest CIEDE2000 distance at which two colours are taken as one (about a just-noticeable step). */
export const SAME_COLOUR_DELTA_E = 2.5;

const distance = differenceCiede2000();

/** The designer's role of each of `hexes` that matches a pick, by hex. */
export function designerRoles(
  hexes: readonly string[],
  picks: readonly DesignerColor[],
): Map<string, ColorRole> {
  const roles = new Map<string, ColorRole>();
  const parsed = picks.flatMap((p) => {
    const c = parse(p.hex);
    return c === undefined ? [] : [{ ...p, c }];
  });
  if (parsed.length === 0) return roles;
  for (const hex of hexes) {
    const c = parse(hex);
    if (c === undefined) continue;
    let best: { role: ColorRole; d: number } | null = null;
    for (const p of parsed) {
      const d = p.hex.toLowerCase() === hex.slice(0, 7).toLowerCase() ? 0 : distance(c, p.c);
      if (d <= SAME_COLOUR_DELTA_E && (best === null || d < best.d)) best = { role: p.role, d };
    }
    if (best !== null) roles.set(hex, best.role);
  }
  return roles;
}
