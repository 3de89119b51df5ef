import { describe, expect, it } from 'vitest';
import { areaDtcgGroup, ideaTokensDocument } from './area-dtcg.js';
import type { AreaTokens } from './area-tokens.js';
import type { ReferencedArea } from './referenced-elements.js';

const tokens: AreaTokens = {
  colors: [
    { hex: '#111827', count: 9, uses: ['text'], role: 'text' },
    { hex: '#ffffff', count: 4, uses: ['background'], role: 'background' },
    { hex: '#2563eb', count: 3, uses: ['background', 'border'], role: 'primary' },
    { hex: 'rgba(15, 23, 42, 0.5)', count: 2, uses: ['border'], role: null },
  ],
  typography: [
    { family: 'Inter', size: '16px', weight: '400', line_height: '24px', letter_spacing: 'normal', count: 6 },
    {
      family: 'Inter',
      size: '28px',
      weight: '700',
      line_height: '33.6px',
      letter_spacing: '-0.5px',
      count: 1,
    },
    // Captured before letter spacing was recorded, and a line height the format cannot type.
    { family: 'Source Serif', size: '16px', weight: '400', line_height: 'normal', count: 2 },
  ],
  spacing: [
    { value: '8px', count: 5 },
    { value: '12.5px', count: 1 },
  ],
  radii: [
    { value: '12px', count: 3 },
    { value: '50%', count: 1 },
  ],
  shadows: [
    { value: 'rgba(0, 0, 0, 0.1) 0px 4px 12px 0px, rgb(37, 99, 235) 0px 0px 0px 1px inset', count: 2 },
  ],
};

const area = (id: string, t: AreaTokens | null): ReferencedArea => ({
  area_id: id,
  selected_area_bounding_box: { x: 0, y: 0, width: 10, height: 10 },
  instruction: 'The pricing card\nKeep the shadow',
  screenshot: null,
  elements: [],
  source_url: 'https://site.test/',
  ...(t === null ? {} : { design_tokens: t }),
});

/** Follows a DTCG alias `{a.b.c}` from the document's root. */
function resolve(doc: Record<string, unknown>, alias: unknown): unknown {
  const path = String(alias)
    .replace(/^\{|\}$/g, '')
    .split('.');
  let at: unknown = doc;
  for (const part of path) at = (at as Record<string, unknown> | undefined)?.[part];
  return (at as { $value?: unknown } | undefined)?.$value;
}

describe('areaDtcgGroup', () => {
  const group = areaDtcgGroup(area('area-1', tokens)) as Record<string, Record<string, unknown>>;

  it('names colours by their palette role, keeps alpha, and says where each is used', () => {
    expect(group.color).toMatchObject({
      $type: 'color',
      text: { $value: { colorSpace: 'srgb', hex: '#111827' } },
      background: { $value: { components: [1, 1, 1] } },
      primary: {
        $value: { hex: '#2563eb' },
        $extensions: { 'com.xipe.uiux_reference': { uses: ['background', 'border'], count: 3 } },
      },
      'color-4': { $value: { hex: '#0f172a', alpha: 0.5 } },
    });
  });

  it('types families, sizes, weights and line heights, once each', () => {
    expect(group['font-family']).toEqual({
      $type: 'fontFamily',
      inter: { $value: 'Inter' },
      'source-serif': { $value: 'Source Serif' },
    });
    expect(Object.keys(group['font-size'] ?? {})).toEqual(['$type', 'size-16', 'size-28']);
    expect(group['font-weight']).toMatchObject({
      'weight-400': { $value: 400 },
      'weight-700': { $value: 700 },
    });
    expect(group['line-height']).toMatchObject({
      $type: 'dimension',
      'line-24': { $value: { value: 24, unit: 'px' } },
      'line-33_6': { $value: { value: 33.6, unit: 'px' } },
    });
  });

  it('makes a typography token of each type style whose parts the format can hold', () => {
    const doc = { area: { 'area-1': group } };
    const styles = group.typography as Record<string, { $value: Record<string, unknown> }>;
    expect(Object.keys(styles)).toEqual(['$type', 'text-1', 'text-2']);
    const heading = styles['text-2']?.$value ?? {};
    expect(resolve(doc, heading.fontFamily)).toBe('Inter');
    expect(resolve(doc, heading.fontSize)).toEqual({ value: 28, unit: 'px' });
    expect(resolve(doc, heading.fontWeight)).toBe(700);
    expect(heading).toMatchObject({ letterSpacing: { value: -0.5, unit: 'px' }, lineHeight: 1.2 });
    expect(styles['text-1']?.$value).toMatchObject({
      letterSpacing: { value: 0, unit: 'px' },
      lineHeight: 1.5,
    });
  });

  it('has the spacing scale, pixel radii and shadows as typed values', () => {
    expect(group.spacing).toEqual({
      $type: 'dimension',
      'space-8': {
        $value: { value: 8, unit: 'px' },
        $extensions: { 'com.xipe.uiux_reference': { count: 5 } },
      },
      'space-12_5': {
        $value: { value: 12.5, unit: 'px' },
        $extensions: { 'com.xipe.uiux_reference': { count: 1 } },
      },
    });
    expect(Object.keys(group.radius ?? {})).toEqual(['$type', 'radius-12']);
    expect(group.shadow).toMatchObject({
      $type: 'shadow',
      'shadow-1': {
        $value: [
          {
            color: { hex: '#000000', alpha: 0.1 },
            offsetX: { value: 0, unit: 'px' },
            offsetY: { value: 4, unit: 'px' },
            blur: { value: 12, unit: 'px' },
            spread: { value: 0, unit: 'px' },
          },
          { color: { hex: '#2563eb' }, spread: { value: 1, unit: 'px' }, inset: true },
        ],
      },
    });
  });

  it('is null for an area saved without tokens', () => {
    expect(areaDtcgGroup(area('area-2', null))).toBeNull();
  });
});

describe('ideaTokensDocument', () => {
  it("holds the sessions' tokens and each area's under area.<id>", () => {
    const doc = ideaTokensDocument({ colors: { primary: '#1a73e8' } }, [
      area('area-1', tokens),
      area('area-2', null),
    ]) as Record<string, Record<string, unknown>>;
    expect(doc.color).toMatchObject({ primary: { $value: { hex: '#1a73e8' } } });
    expect(Object.keys(doc.area ?? {})).toEqual(['$description', 'area-1']);
    expect(doc.area?.['area-1']).toMatchObject({ $description: expect.stringContaining('The pricing card') });
  });

  it('is null when there is nothing to write', () => {
    expect(ideaTokensDocument({}, [area('area-2', null)])).toBeNull();
    expect(ideaTokensDocument({}, [area('area-1', tokens)])).not.toBeNull();
  });
});
