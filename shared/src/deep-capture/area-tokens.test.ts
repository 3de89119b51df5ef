import { describe, expect, it } from 'vitest';
import { testCapture, testNode } from '#test/helpers/captures.js';
import type { CaptureNode } from './area-capture.js';
import { areaTokens } from './area-tokens.js';
import { toReferencedArea } from './referenced-area.js';
import { mergeReferencedElements } from './referenced-elements.js';
import { renderSummary, SUMMARY_AREA_LIMIT } from './summary.js';

const node = (partial: Partial<CaptureNode> & Pick<CaptureNode, 'tag'>) => testNode(partial);
const capture = (nodes: CaptureNode[]) =>
  testCapture(nodes, {
    url: 'https://site.test/',
    title: 'Site',
    rect: { x: 0, y: 0, width: 400, height: 300 },
    scroll: { x: 0, y: 0 },
  });

const card = capture([
  node({
    tag: 'section',
    children: [1, 2, 3],
    styles: {
      'background-color': 'rgb(255, 255, 255)',
      color: 'rgb(17, 24, 39)',
      'font-family': '"Inter", sans-serif',
      'font-size': '16px',
      'line-height': '24px',
      'padding-top': '24px',
      'border-top-left-radius': '12px',
      'box-shadow': 'rgba(0, 0, 0, 0.1) 0px 4px 12px 0px',
    },
  }),
  node({
    tag: 'h2',
    parent: 0,
    text: 'Title',
    styles: { 'font-size': '28px', 'font-weight': '700', 'margin-bottom': '8px' },
  }),
  node({ tag: 'p', parent: 0, text: 'Body copy' }),
  node({
    tag: 'a',
    parent: 0,
    text: 'Buy',
    styles: {
      'background-color': 'rgb(37, 99, 235)',
      color: 'rgb(255, 255, 255)',
      'border-top-style': 'solid',
      'border-top-color': 'rgb(29, 78, 216)',
    },
  }),
  node({ tag: 'div', kind: 'gap', parent: 0, styles: { 'background-color': 'rgb(255, 0, 0)' } }),
]);

describe('areaTokens', () => {
  const tokens = areaTokens(card);

  it('reads colours with their uses and guesses the palette roles', () => {
    expect(tokens.colors.find((c) => c.hex === '#111827')).toMatchObject({ uses: ['text'], role: 'text' });
    expect(tokens.colors.find((c) => c.hex === '#2563eb')).toMatchObject({
      uses: ['background'],
      role: 'primary',
    });
    expect(tokens.colors.find((c) => c.hex === '#1d4ed8')).toMatchObject({ uses: ['border'] });
    // Gaps are layout only: their colours are not the area's.
    expect(tokens.colors.some((c) => c.hex === '#ff0000')).toBe(false);
  });

  it("takes the designer's role for a colour picked in the session, exact or a hair apart, and guesses the rest around it", () => {
    const picked = areaTokens(card, [
      { hex: '#2563eb', role: 'secondary' },
      // #1d4ed8 as a sampled pixel might come out: a CIEDE2000 step under 1.
      { hex: '#1e4fd9', role: 'primary' },
      { hex: '#ff00ff', role: 'accent' },
    ]);
    const role = (hex: string) => picked.colors.find((c) => c.hex === hex)?.role;
    expect(role('#2563eb')).toBe('secondary');
    expect(role('#1d4ed8')).toBe('primary');
    expect(role('#111827')).toBe('text');
    expect(picked.colors.filter((c) => c.role === 'primary')).toHaveLength(1);
    // The guess never hands out a role the designer gave (accent went to a colour not in the area).
    expect(picked.colors.filter((c) => c.role === 'accent')).toHaveLength(0);
    const area = {
      ...toReferencedArea(card, {
        areaId: 'area-1',
        instruction: '',
        screenshot: 'screenshots/area-1.png',
        names: ['section-1', 'heading-1', 'text-1', 'link-1', 'gap-1'],
        resources: new Map(),
        pixelResource: () => null,
        clone: { structure_html: 'x.html', styles_css: 'x.css' },
      }),
      design_tokens: picked,
    };
    const summary = renderSummary(
      'Idea',
      mergeReferencedElements(null, {
        source_url: card.url,
        timestamp: 't',
        areas: [area],
        static_resources: [],
      }),
    );
    expect(summary).toContain('#2563eb secondary');
    expect(summary).toContain('#1d4ed8 primary');
    // A colour clearly apart keeps its guess.
    expect(
      areaTokens(card, [{ hex: '#3b82f6', role: 'accent' }]).colors.find((c) => c.hex === '#2563eb')?.role,
    ).toBe('primary');
  });

  it('follows inherited type up the tree to each text', () => {
    expect(tokens.typography).toEqual(
      expect.arrayContaining([
        {
          family: 'Inter',
          size: '28px',
          weight: '700',
          line_height: '24px',
          letter_spacing: 'normal',
          count: 1,
        },
        {
          family: 'Inter',
          size: '16px',
          weight: '400',
          line_height: '24px',
          letter_spacing: 'normal',
          count: 2,
        },
      ]),
    );
  });

  it('collects spacing, radii and shadows', () => {
    expect(tokens.spacing.map((v) => v.value)).toEqual(['8px', '24px']);
    expect(tokens.radii).toEqual([{ value: '12px', count: 1 }]);
    expect(tokens.shadows).toEqual([{ value: 'rgba(0, 0, 0, 0.1) 0px 4px 12px 0px', count: 1 }]);
  });
});

describe('renderSummary', () => {
  const area = {
    ...toReferencedArea(card, {
      areaId: 'area-1',
      instruction: 'Use as the pricing card\nKeep the shadow',
      screenshot: 'screenshots/area-1.png',
      names: ['section-1', 'heading-1', 'text-1', 'link-1', 'gap-1'],
      resources: new Map(),
      pixelResource: () => null,
      clone: { structure_html: 'resources/area-1-structure.html', styles_css: 'resources/area-1-styles.css' },
    }),
    source_url: card.url,
    design_tokens: areaTokens(card),
  };
  const file = mergeReferencedElements(null, {
    source_url: card.url,
    timestamp: 't',
    areas: [area],
    static_resources: [],
  });
  const text = renderSummary('001. Demo', file);

  it('says per area what to open and what it is made of', () => {
    expect(text).toContain('# UI/UX references: 001. Demo');
    expect(text).toContain('## area-1 — Use as the pricing card');
    expect(text).toContain('> Keep the shadow');
    expect(text).toContain('`resources/area-1-structure.html` + `resources/area-1-styles.css`');
    expect(text).toContain('#2563eb primary');
    expect(text).toContain('Inter 28px/24px 700');
    // The page's URL is page text: escaped, so it can never become a link.
    expect(text).toContain('of https\\://site\\.test/');
  });

  it('keeps each area under its size limit', () => {
    const big = { ...area, instruction: 'x'.repeat(20_000) };
    const huge = mergeReferencedElements(null, {
      source_url: card.url,
      timestamp: 't',
      areas: [big],
      static_resources: [],
    });
    const section = renderSummary('i', huge).split('## ')[1] ?? '';
    expect(Buffer.byteLength(section)).toBeLessThanOrEqual(SUMMARY_AREA_LIMIT + 64);
  });
});
