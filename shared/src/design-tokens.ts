/**
 * Design tokens: the v1.0 `design_tokens` section built from what the designer picked, and its
 * W3C Design Tokens (DTCG 2025.10) form, written as `design-tokens.tokens.json` next to
 * `reference-data.json`. Pure and browser-safe: the toolbar builds the first, the host writes the
 * second from the merged view.
 */

export const DTCG_FILE = 'design-tokens.tokens.json';

/** The roles a picked colour can play (keys of design_tokens.colors), in the order the toolbar offers them. */
export const COLOR_ROLES = ['primary', 'secondary', 'accent', 'background', 'text', 'custom'] as const;
export type ColorRole = (typeof COLOR_ROLES)[number];

export interface RoleColor {
  hex: string;
  role: ColorRole;
}

export interface TypographyPick {
  heading_font?: string | undefined;
  body_font?: string | undefined;
  base_size?: string | undefined;
}

/** `{colors: {primary: "#…", …}, typography: {heading_font, body_font, base_size}}`; empty parts left out. */
export function buildDesignTokens(
  colors: readonly RoleColor[],
  typography: TypographyPick,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byRole: Record<string, string> = {};
  const seen = new Map<string, number>();
  for (const c of colors) {
    const n = (seen.get(c.role) ?? 0) + 1;
    seen.set(c.role, n);
    // The first colour of a role takes the plain name, later ones are numbered (primary-2).
    byRole[n === 1 ? c.role : `${c.role}-${n}`] = c.hex.toLowerCase();
  }
  if (Object.keys(byRole).length > 0) out.colors = byRole;
  const typo: Record<string, string> = {};
  if (typography.heading_font) typo.heading_font = typography.heading_font;
  if (typography.body_font) typo.body_font = typography.body_font;
  if (typography.base_size) typo.base_size = typography.base_size;
  if (Object.keys(typo).length > 0) out.typography = typo;
  return out;
}

/** Splits a CSS font-family list into names, unquoted: `"Inter", system-ui` → ["Inter", "system-ui"]. */
export function parseFontFamily(value: string): string[] {
  const names: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const ch of value) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ',') {
      if (current.trim()) names.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) names.push(current.trim().replace(/\s+/g, ' '));
  return names;
}

/** `16px` / `1.25rem` → DTCG dimension; anything else null. */
export function parseDimension(value: string): { value: number; unit: 'px' | 'rem' } | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)(px|rem)\s*$/.exec(value);
  if (!m) return null;
  return { value: Number(m[1]), unit: m[2] === 'rem' ? 'rem' : 'px' };
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

function dtcgColor(rgb: readonly number[], alpha: number): Record<string, unknown> {
  const hex = `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
  const value: Record<string, unknown> = {
    colorSpace: 'srgb',
    components: rgb.map((c) => round4(c / 255)),
    hex,
  };
  if (alpha < 1) value.alpha = round4(alpha);
  return value;
}

/** `#rrggbb[aa]`, `rgb(…)` or `rgba(…)` (as computed styles give them) → a DTCG colour value; else null. */
export function cssColorToDtcg(css: string): Record<string, unknown> | null {
  const hex = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(css.trim());
  if (hex?.[1] !== undefined) {
    const body = hex[1];
    const rgb = [0, 2, 4].map((i) => Number.parseInt(body.slice(i, i + 2), 16));
    return dtcgColor(rgb, hex[2] === undefined ? 1 : Number.parseInt(hex[2], 16) / 255);
  }
  const fn = /^rgba?\(([^()]*)\)$/i.exec(css.trim())?.[1];
  const parts = fn
    ?.split(/[\s,/]+/)
    .filter((p) => p !== '')
    .map(Number);
  if (parts === undefined || parts.length < 3 || parts.some((p) => !Number.isFinite(p))) return null;
  const [r = 0, g = 0, b = 0, a = 1] = parts;
  if ([r, g, b].some((c) => c < 0 || c > 255) || a < 0 || a > 1) return null;
  return dtcgColor([r, g, b], a);
}

/** DTCG names may not start with `$` nor contain `{`, `}` or `.`. */
export function tokenName(name: string): string {
  const cleaned = name.replace(/[{}.]/g, '-').replace(/^\$+/, '');
  return cleaned.length > 0 ? cleaned : 'token';
}

/**
 * Converts a v1.0 `design_tokens` object to a DTCG 2025.10 document. Known parts become typed
 * tokens (colors → `color`, fonts → `fontFamily`, base size → `dimension`); anything else is kept
 * under `$extensions` so nothing the agent saved is lost.
 */
export function toDtcg(designTokens: Record<string, unknown>): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    $description: 'Design tokens collected with X-IPE UI/UX Reference (W3C DTCG 2025.10 format).',
  };
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(designTokens)) {
    if (key === 'colors' && value && typeof value === 'object' && !Array.isArray(value)) {
      const group: Record<string, unknown> = { $type: 'color' };
      const rest: Record<string, unknown> = {};
      for (const [name, hex] of Object.entries(value)) {
        const color = typeof hex === 'string' && hex.trim().startsWith('#') ? cssColorToDtcg(hex) : null;
        if (color) group[tokenName(name)] = { $value: color };
        else rest[name] = hex;
      }
      doc.color = group;
      if (Object.keys(rest).length > 0) extra.colors = rest;
    } else if (key === 'typography' && value && typeof value === 'object' && !Array.isArray(value)) {
      const t = value as Record<string, unknown>;
      const font: Record<string, unknown> = {};
      const rest: Record<string, unknown> = {};
      for (const [name, v] of Object.entries(t)) {
        if ((name === 'heading_font' || name === 'body_font') && typeof v === 'string' && v.trim()) {
          font[name === 'heading_font' ? 'heading' : 'body'] = {
            $type: 'fontFamily',
            $value: parseFontFamily(v),
          };
        } else if (name === 'base_size' && typeof v === 'string' && parseDimension(v)) {
          doc.size = { base: { $type: 'dimension', $value: parseDimension(v) } };
        } else rest[name] = v;
      }
      if (Object.keys(font).length > 0) doc.font = font;
      if (Object.keys(rest).length > 0) extra.typography = rest;
    } else {
      extra[key] = value;
    }
  }
  if (Object.keys(extra).length > 0) doc.$extensions = { 'com.xipe.uiux_reference': extra };
  return doc;
}
