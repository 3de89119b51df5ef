import { describe, expect, it } from 'vitest';
import { buildDesignTokens, parseDimension, parseFontFamily, toDtcg } from './design-tokens.js';

describe('buildDesignTokens', () => {
  it('names colours by role, numbering repeats, and keeps only what was picked', () => {
    expect(
      buildDesignTokens(
        [
          { hex: '#2563EB', role: 'primary' },
          { hex: '#ffffff', role: 'background' },
          { hex: '#1d4ed8', role: 'primary' },
        ],
        { heading_font: '"Inter", sans-serif', base_size: '16px' },
      ),
    ).toEqual({
      colors: { primary: '#2563eb', background: '#ffffff', 'primary-2': '#1d4ed8' },
      typography: { heading_font: '"Inter", sans-serif', base_size: '16px' },
    });
    expect(buildDesignTokens([], {})).toEqual({});
  });
});

describe('toDtcg', () => {
  it('writes typed DTCG 2025.10 tokens', () => {
    const doc = toDtcg({
      colors: { primary: '#2563eb', overlay: '#00000080', weird: 'oklch(0.5 0.1 200)' },
      typography: {
        heading_font: "'Playfair Display', serif",
        body_font: 'Inter',
        base_size: '16px',
        scale: 1.25,
      },
      spacing: { sm: '4px' },
    });
    expect(doc).toMatchObject({
      color: {
        $type: 'color',
        primary: { $value: { colorSpace: 'srgb', components: [0.1451, 0.3882, 0.9216], hex: '#2563eb' } },
        overlay: { $value: { colorSpace: 'srgb', components: [0, 0, 0], hex: '#000000', alpha: 0.502 } },
      },
      font: {
        heading: { $type: 'fontFamily', $value: ['Playfair Display', 'serif'] },
        body: { $type: 'fontFamily', $value: ['Inter'] },
      },
      size: { base: { $type: 'dimension', $value: { value: 16, unit: 'px' } } },
      $extensions: {
        'com.xipe.uiux_reference': {
          colors: { weird: 'oklch(0.5 0.1 200)' },
          typography: { scale: 1.25 },
          spacing: { sm: '4px' },
        },
      },
    });
  });
  it('never emits names DTCG forbids', () => {
    const doc = toDtcg({ colors: { 'a.b': '#000000', $x: '#ffffff' } }) as { color: Record<string, unknown> };
    expect(Object.keys(doc.color).sort()).toEqual(['$type', 'a-b', 'x']);
  });
});

describe('parsers', () => {
  it('splits font-family lists', () => {
    expect(parseFontFamily('"Helvetica Neue", Arial,  sans-serif')).toEqual([
      'Helvetica Neue',
      'Arial',
      'sans-serif',
    ]);
    expect(parseFontFamily("'a,b', c")).toEqual(['a,b', 'c']);
  });
  it('parses px and rem only', () => {
    expect(parseDimension('1.5rem')).toEqual({ value: 1.5, unit: 'rem' });
    expect(parseDimension('12pt')).toBeNull();
  });
});
