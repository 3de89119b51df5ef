import { parseFontFamily } from '../design-tokens.js';
import type { AreaCapture, CaptureNode } from './area-capture.js';
import { readableColor } from './clone/declarations.js';

/**
 * The design tokens an area uses, read from its capture: colours with the role they play (text,
 * background, border) and a guessed palette role, type styles actually applied to text, and the
 * spacing, radius and shadow values in use, each with how often it occurs. Inherited values are
 * followed up the capture's tree, so a paragraph that inherits its font still counts it.
 */

export interface ColorToken {
  hex: string;
  count: number;
  uses: string[];
  role: 'primary' | 'accent' | 'background' | 'text' | 'border' | null;
}

export interface TypeToken {
  family: string;
  size: string;
  weight: string;
  line_height: string;
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

function saturation(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  if (r === undefined || g === undefined || b === undefined) return 0;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  return max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
}

function guessRoles(colors: ColorToken[]): void {
  const top = (use: string) => colors.filter((c) => c.uses.includes(use) && c.role === null).sort(byCount)[0];
  const background = top('background');
  if (background !== undefined) background.role = 'background';
  const text = top('text');
  if (text !== undefined) text.role = 'text';
  const vivid = colors.filter(
    (c) => c.role === null && /^#[0-9a-f]{6}$/.test(c.hex) && saturation(c.hex) > 0.35,
  );
  const [primary, accent] = vivid.sort(byCount);
  if (primary !== undefined) primary.role = 'primary';
  if (accent !== undefined) accent.role = 'accent';
  for (const c of colors)
    if (c.role === null && c.uses.length === 1 && c.uses[0] === 'border') c.role = 'border';
}

export function areaTokens(capture: AreaCapture): AreaTokens {
  const { nodes } = capture;
  const colors = new Map<string, { count: number; uses: Set<string> }>();
  const addColor = (value: string, use: string) => {
    if (!/^rgba?\(/.test(value) || /,\s*0\)$/.test(value)) return;
    const hex = readableColor(value);
    const entry = colors.get(hex) ?? { count: 0, uses: new Set<string>() };
    entry.count += 1;
    entry.uses.add(use);
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
  const colorTokens: ColorToken[] = [...colors.entries()]
    .map(([hex, e]) => ({ hex, count: e.count, uses: [...e.uses].sort(), role: null }))
    .sort(byCount)
    .slice(0, 24);
  guessRoles(colorTokens);
  const typography: TypeToken[] = [...type.entries()]
    .map(([key, n]) => {
      const [family = '', size = '', weight = '', lineHeight = ''] = JSON.parse(key) as string[];
      return { family, size, weight, line_height: lineHeight, count: n };
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
