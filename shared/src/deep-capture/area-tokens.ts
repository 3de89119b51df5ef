import { type ColorRole, parseFontFamily } from '../design-tokens.js';
import { type ColorUsage, suggestRoles } from '../palette-roles.js';
import type { AreaCapture, CaptureNode } from './area-capture.js';
import { type DesignerColor, designerRoles } from './designer-roles.js';
import { readableColor } from './readable-color.js';

/**
 * The design tokens an area uses, read from its capture: colours with where they are used (text,
 * background, border) and their palette role — the designer's, for a colour picked and named in
 * the same toolbar session (designer-roles.ts), else the guess the toolbar would make (shared rule), type
 * styles actually applied to text, and the
 * spacing, radius and shadow values in use, each with how often it occurs. Inherited values are
 * followed up the capture's tree, so a paragraph that inherits its font still counts it.
 */

export interface ColorToken {
  hex: string;
  count: number;
  uses: string[];
  role: ColorRole | null;
}

export interface TypeToken {
  family: string;
  size: string;
  weight: string;
  line_height: string;
  /** Absent in areas captured before it was recorded (read as `normal`). */
  letter_spacing?: string;
  count: number;
}

export interface ValueToken {
  value: string;
  count: number;
}

export interface AreaTokens {
  colors: ColorToken[];
  typography: TypeToken[];
  spacing: ValueToken[];
  radii: ValueToken[];
  shadows: ValueToken[];
}

const INHERITED_DEFAULTS: Record<string, string> = {
  color: 'rgb(0, 0, 0)',
  'font-family': 'serif',
  'font-size': '16px',
  'font-weight': '400',
  'line-height': 'normal',
  'letter-spacing': 'normal',
};

function effective(nodes: readonly CaptureNode[], index: number, prop: string): string {
  for (let i: number | null = index; i !== null; i = nodes[i]?.parent ?? null) {
    const value = nodes[i]?.styles[prop];
    if (value !== undefined) return value;
  }
  return INHERITED_DEFAULTS[prop] ?? '';
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;

function ranked(map: Map<string, number>, limit: number): ValueToken[] {
  return [...map.entries()]
    .map(([value, n]) => ({ value, count: n }))
    .sort(byCount)
    .slice(0, limit);
}

/** `designer`: the colours picked in the toolbar session that captured the area, with their roles. */
export function areaTokens(capture: AreaCapture, designer: readonly DesignerColor[] = []): AreaTokens {
  const { nodes } = capture;
  const colors = new Map<string, { count: number; usage: Record<ColorUsage, number> }>();
  const addColor = (value: string, use: ColorUsage) => {
    if (!/^rgba?\(/.test(value) || /,\s*0\)$/.test(value)) return;
    const hex = readableColor(value);
    const entry = colors.get(hex) ?? { count: 0, usage: { background: 0, text: 0, border: 0, fill: 0 } };
    entry.count += 1;
    entry.usage[use] += 1;
    colors.set(hex, entry);
  };
  const type = new Map<string, number>();
  const spacing = new Map<string, number>();
  const radii = new Map<string, number>();
  const shadows = new Map<string, number>();
  nodes.forEach((node, i) => {
    if (node.kind === 'gap') return;
    const s = node.styles;
    if (node.text !== '') {
      addColor(effective(nodes, i, 'color'), 'text');
      const family = parseFontFamily(effective(nodes, i, 'font-family'))[0] ?? '';
      const key = [
        family,
        effective(nodes, i, 'font-size'),
        effective(nodes, i, 'font-weight'),
        effective(nodes, i, 'line-height'),
        effective(nodes, i, 'letter-spacing'),
      ];
      count(type, JSON.stringify(key));
    }
    if (s['background-color'] !== undefined) addColor(s['background-color'], 'background');
    for (const side of ['top', 'right', 'bottom', 'left']) {
      const style = s[`border-${side}-style`];
      if (style !== undefined && style !== 'none')
        addColor(s[`border-${side}-color`] ?? effective(nodes, i, 'color'), 'border');
    }
    for (const [prop, value] of Object.entries(s)) {
      if (/^(margin|padding)-|^(row|column)-gap$/.test(prop) && /^[1-9][\d.]*px$/.test(value))
        count(spacing, value);
      if (/^border-.*-radius$/.test(prop) && value !== '0px') count(radii, value);
    }
    if (s['box-shadow'] !== undefined) count(shadows, s['box-shadow']);
  });
  const used = [...colors.entries()]
    .map(([hex, e]) => ({ hex, ...e }))
    .sort(byCount)
    .slice(0, 24);
  const roles = suggestRoles(
    used,
    designerRoles(
      used.map((c) => c.hex),
      designer,
    ),
  );
  const colorTokens: ColorToken[] = used.map((c) => ({
    hex: c.hex,
    count: c.count,
    uses: (Object.keys(c.usage) as ColorUsage[]).filter((u) => c.usage[u] > 0).sort(),
    role: roles.get(c.hex) ?? null,
  }));
  const typography: TypeToken[] = [...type.entries()]
    .map(([key, n]) => {
      const [family = '', size = '', weight = '', lineHeight = '', letterSpacing = ''] = JSON.parse(
        key,
      ) as string[];
      return { family, size, weight, line_height: lineHeight, letter_spacing: letterSpacing, count: n };
    })
    .sort(byCount)
    .slice(0, 12);
  return {
    colors: colorTokens,
    typography,
    spacing: ranked(spacing, 16).sort((a, b) => Number.parseFloat(a.value) - Number.parseFloat(b.value)),
    radii: ranked(radii, 8),
    shadows: ranked(shadows, 6),
  };
}

/** The tokens stored on an area of referenced-elements.json (`design_tokens`), or null when it has none. */
export function areaTokensOf(area: Record<string, unknown>): AreaTokens | null {
  const tokens = area.design_tokens;
  if (tokens === null || typeof tokens !== 'object') return null;
  const t = tokens as Partial<AreaTokens>;
  const lists = [t.colors, t.typography, t.spacing, t.radii, t.shadows];
  return lists.every(Array.isArray) ? (tokens as AreaTokens) : null;
}
