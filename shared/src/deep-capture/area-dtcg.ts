import { cssColorToDtcg, parseDimension, toDtcg, tokenName } from '../design-tokens.js';
import { type AreaTokens, areaTokensOf, type TypeToken } from './area-tokens.js';
import type { ReferencedArea } from './referenced-elements.js';

/**
 * The idea's `design-tokens.tokens.json` (W3C DTCG 2025.10): the tokens saved with the sessions
 * (toDtcg) and, under `area`, one group per area of referenced-elements.json with what that area
 * uses — colours named by their guessed palette role, font families, sizes, weights and line
 * heights, type styles as typography tokens that refer to those, the spacing scale, radii and
 * shadows. Values the format cannot type (`50%` radii, `normal` line heights) stay out of the
 * typed tokens; how often each value occurs is in `$extensions`.
 */

const EXT = 'com.xipe.uiux_reference';

type Group = Record<string, unknown>;

/** Adds `token` to `group` under `name`, numbered when the name is taken (`primary-2`). */
function put(group: Group, name: string, token: Group): string {
  const base = tokenName(name);
  let key = base;
  for (let n = 2; key in group; n++) key = `${base}-${n}`;
  group[key] = token;
  return key;
}

const px = (value: string) => {
  const d = parseDimension(value);
  return d?.unit === 'px' ? d : null;
};
/** A name from a CSS length: `13.5px` → `13_5`. */
const valueName = (value: string) => value.replace(/px$/, '').replace('.', '_');
const counted = (count: number, more: Group = {}) => ({ $extensions: { [EXT]: { count, ...more } } });

function colors(tokens: AreaTokens): Group {
  const group: Group = { $type: 'color' };
  tokens.colors.forEach((c, i) => {
    const value = cssColorToDtcg(c.hex);
    if (value === null) return;
    put(group, c.role ?? `color-${i + 1}`, {
      $value: value,
      ...counted(c.count, { uses: c.uses, role: c.role }),
    });
  });
  return group;
}

/** Shadows as computed: `rgba(0, 0, 0, 0.1) 0px 4px 12px 0px[ inset], …`. */
function parseShadow(value: string): Group[] | null {
  const layers: Group[] = [];
  for (const layer of value.split(/,(?![^()]*\))/)) {
    const color = /(rgba?\([^()]*\)|#[0-9a-f]{6,8})/i.exec(layer)?.[1];
    const lengths = layer
      .replace(color ?? '', '')
      .replace('inset', '')
      .trim()
      .split(/\s+/)
      .map(px);
    const dtcg = color === undefined ? null : cssColorToDtcg(color);
    if (dtcg === null || lengths.length < 2 || lengths.length > 4 || lengths.some((l) => l === null))
      return null;
    const zero = { value: 0, unit: 'px' };
    const [offsetX, offsetY, blur = zero, spread = zero] = lengths;
    layers.push({
      color: dtcg,
      offsetX,
      offsetY,
      blur,
      spread,
      ...(/\binset\b/.test(layer) ? { inset: true } : {}),
    });
  }
  return layers.length > 0 ? layers : null;
}

function dimensions(values: AreaTokens['spacing'], prefix: string): Group {
  const group: Group = { $type: 'dimension' };
  for (const v of values) {
    const d = px(v.value);
    if (d !== null) put(group, `${prefix}-${valueName(v.value)}`, { $value: d, ...counted(v.count) });
  }
  return group;
}

/** Families, sizes, weights and line heights, and a typography token per type style. */
function typography(tokens: AreaTokens, path: string): Group {
  const families: Group = { $type: 'fontFamily' };
  const sizes: Group = { $type: 'dimension' };
  const weights: Group = { $type: 'fontWeight' };
  const lineHeights: Group = { $type: 'dimension' };
  const styles: Group = { $type: 'typography' };
  const names = new Map<string, string>();
  const once = (group: Group, groupName: string, key: string, token: Group | null): string | null => {
    if (token === null) return null;
    const id = `${groupName}:${key}`;
    const known = names.get(id);
    if (known !== undefined) return known;
    const name = put(group, key, token);
    names.set(id, name);
    return name;
  };
  tokens.typography.forEach((t: TypeToken, i) => {
    const family = once(families, 'font-family', t.family.toLowerCase().replace(/\s+/g, '-'), {
      $value: t.family,
    });
    const size = px(t.size);
    const sizeName = once(sizes, 'font-size', `size-${valueName(t.size)}`, size && { $value: size });
    const weight = Number(t.weight);
    const weightName = once(
      weights,
      'font-weight',
      `weight-${t.weight}`,
      Number.isInteger(weight) && weight >= 1 && weight <= 1000 ? { $value: weight } : null,
    );
    const lh = px(t.line_height);
    once(lineHeights, 'line-height', `line-${valueName(t.line_height)}`, lh && { $value: lh });
    const spacing =
      (t.letter_spacing ?? 'normal') === 'normal' ? { value: 0, unit: 'px' } : px(t.letter_spacing ?? '');
    if (family === null || sizeName === null || weightName === null || size === null || lh === null) return;
    if (spacing === null || size.value === 0) return;
    put(styles, `text-${i + 1}`, {
      $value: {
        fontFamily: `{${path}.font-family.${family}}`,
        fontSize: `{${path}.font-size.${sizeName}}`,
        fontWeight: `{${path}.font-weight.${weightName}}`,
        letterSpacing: spacing,
        lineHeight: Math.round((lh.value / size.value) * 10_000) / 10_000,
      },
      ...counted(t.count),
    });
  });
  return {
    'font-family': families,
    'font-size': sizes,
    'font-weight': weights,
    'line-height': lineHeights,
    typography: styles,
  };
}

/** One area's group, or null when it has no tokens (an area an agent saved without them). */
export function areaDtcgGroup(area: ReferencedArea): Group | null {
  const tokens = areaTokensOf(area);
  if (tokens === null) return null;
  const path = `area.${tokenName(area.area_id)}`;
  const shadows: Group = { $type: 'shadow' };
  tokens.shadows.forEach((s, i) => {
    const value = parseShadow(s.value);
    if (value !== null) put(shadows, `shadow-${i + 1}`, { $value: value, ...counted(s.count) });
  });
  const source = typeof area.source_url === 'string' ? ` of ${area.source_url}` : '';
  const instruction = area.instruction.trim().split('\n')[0] ?? '';
  const group: Group = {
    $description: `Used in ${area.area_id}${source}${instruction !== '' ? ` (${instruction})` : ''}, most used first.`,
    color: colors(tokens),
    ...typography(tokens, path),
    spacing: dimensions(tokens.spacing, 'space'),
    radius: dimensions(tokens.radii, 'radius'),
    shadow: shadows,
  };
  // Groups with nothing but their type say nothing.
  for (const [key, value] of Object.entries(group)) {
    if (typeof value === 'object' && value !== null && Object.keys(value).length === 1) delete group[key];
  }
  return group;
}

/**
 * The whole document: the sessions' tokens, then the areas'. Null when there is nothing to write
 * (no session tokens and no area with tokens).
 */
export function ideaTokensDocument(
  designTokens: Record<string, unknown>,
  areas: readonly ReferencedArea[],
): Record<string, unknown> | null {
  const byArea: Group = {};
  for (const area of areas) {
    const group = areaDtcgGroup(area);
    if (group !== null) byArea[tokenName(area.area_id)] = group;
  }
  if (Object.keys(designTokens).length === 0 && Object.keys(byArea).length === 0) return null;
  const doc = toDtcg(designTokens);
  if (Object.keys(byArea).length > 0) {
    doc.area = {
      $description:
        'Tokens each captured area uses (page-element-references/referenced-elements.json); roles are guesses.',
      ...byArea,
    };
  }
  return doc;
}
