import { describe, expect, it } from 'vitest';
import { compare } from './compare.js';
import type { Elem } from './model.js';
import { compareImages, type Rgba } from './pixels.js';

/** Synthetic pairs: each metric and each kind of difference, on elements and images built here. */

const SIZE = { width: 400, height: 300 };

function flat(width: number, height: number, rgb: [number, number, number]): Rgba {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...rgb, 255], i * 4);
  return { width, height, data };
}

function checker(width: number, height: number, cell: number, offset = 0): Rgba {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = (Math.floor((x + offset) / cell) + Math.floor(y / cell)) % 2 === 0 ? 30 : 220;
      data.set([v, v, v, 255], (y * width + x) * 4);
    }
  return { width, height, data };
}

const BASE: Record<string, string> = {
  'font-family': '"Liberation Sans", sans-serif',
  'font-size': '16px',
  'font-weight': '400',
  'line-height': '24px',
  color: 'rgb(29, 36, 51)',
  'background-color': 'rgba(0, 0, 0, 0)',
  'background-image': 'none',
  'box-shadow': 'none',
  ...Object.fromEntries(
    ['top', 'right', 'bottom', 'left'].flatMap((s) => [
      [`padding-${s}`, '0px'],
      [`margin-${s}`, '0px'],
      [`border-${s}-width`, '0px'],
      [`border-${s}-style`, 'none'],
      [`border-${s}-color`, 'rgb(29, 36, 51)'],
    ]),
  ),
  'row-gap': 'normal',
  'column-gap': 'normal',
};

const CARD_BG = { 'background-color': 'rgb(255, 255, 255)', 'padding-top': '24px', 'padding-left': '24px' };

/** A card with a heading, a paragraph and a button. */
function page(): Elem[] {
  const el = (
    index: number,
    tag: string,
    name: string,
    text: string,
    rect: Elem['rect'],
    parent: number | null,
    styles: Record<string, string> = {},
  ): Elem => ({
    index,
    tag,
    name,
    text,
    rect,
    parent,
    styles: { ...BASE, ...styles },
  });
  return [
    el(0, 'section', '.card', '', { x: 0, y: 0, width: 400, height: 300 }, null, CARD_BG),
    el(1, 'h2', '.card h2', 'Ship pages that match', { x: 24, y: 24, width: 300, height: 34 }, 0, {
      'font-size': '28px',
      'font-weight': '700',
    }),
    el(2, 'p', '.card p', 'Capture, rebuild, compare.', { x: 24, y: 70, width: 340, height: 48 }, 0),
    el(3, 'a', '.card .buy', 'Start free trial', { x: 24, y: 140, width: 150, height: 40 }, 0, {
      'background-color': 'rgb(11, 107, 203)',
      'padding-top': '10px',
      'padding-left': '20px',
    }),
    el(4, 'a', '.card .demo', 'Watch demo', { x: 190, y: 140, width: 130, height: 40 }, 0, {
      'border-top-width': '1px',
      'border-top-style': 'solid',
    }),
  ];
}

function run(candidate: Elem[], images?: { reference: Rgba; candidate: Rgba }) {
  const image = flat(SIZE.width, SIZE.height, [255, 255, 255]);
  return compare({
    reference: images?.reference ?? image,
    candidate: images?.candidate ?? image,
    size: SIZE,
    referenceElements: page(),
    candidateElements: candidate,
  });
}

const change = (
  list: Elem[],
  index: number,
  patch: Partial<Elem> & { styles?: Record<string, string> },
): Elem[] =>
  list.map((e) =>
    e.index === index ? { ...e, ...patch, styles: { ...e.styles, ...(patch.styles ?? {}) } } : e,
  );

describe('compare (synthetic pairs)', () => {
  it('identical: every score 1, no difference', () => {
    const result = run(page());
    expect(result.scores).toEqual({ pixel: 1, ssim: 1, block_match: 1, text: 1, position: 1, color: 1 });
    expect(result.found.differences).toEqual([]);
  });

  it('an element moved 12 px: position drops, the difference names it and 12 px', () => {
    const moved = change(page(), 3, { rect: { x: 36, y: 140, width: 150, height: 40 } });
    const result = run(moved);
    expect(result.scores.position).toBeLessThan(1);
    const texts = result.found.differences.map((d) => d.text);
    expect(texts).toEqual(['`.card .buy`: 12 px further right than in the reference']);
  });

  it('a colour changed: named with both values', () => {
    const result = run(change(page(), 2, { styles: { color: 'rgb(154, 43, 43)' } }));
    expect(result.scores.color).toBeLessThan(1);
    expect(result.found.differences.map((d) => d.text)).toEqual([
      '`.card p`: color rgb(154, 43, 43), reference rgb(29, 36, 51)',
    ]);
  });

  it('an element removed: block match drops and it is listed as missing', () => {
    const result = run(page().filter((e) => e.index !== 4));
    expect(result.scores.block_match).toBeLessThan(1);
    expect(result.found.differences.map((d) => [d.kind, d.text])).toEqual([
      ['missing', "missing: the 'Watch demo' link (reference .card .demo, at 190,140)"],
    ]);
  });

  it('a font weight changed: named', () => {
    const result = run(change(page(), 1, { styles: { 'font-weight': '400' } }));
    expect(result.found.differences.map((d) => d.text)).toEqual([
      '`.card h2`: font-weight 400, reference 700',
    ]);
  });

  it('a container moved with its children: reported once, for the container', () => {
    const shifted = page().map((e) => ({ ...e, rect: { ...e.rect, x: e.rect.x + 12 } }));
    const result = run(shifted);
    const moves = result.found.differences.filter((d) => d.kind === 'moved');
    expect(moves.map((d) => d.text)).toEqual(['`.card`: 12 px further right than in the reference']);
    expect(moves[0]?.carried).toBe(5);
  });

  it('an unpainted wrapper that moved is named once, not its children', () => {
    const wrapped: Elem[] = [
      ...page().map((e) => (e.parent === 0 && e.index >= 3 ? { ...e, parent: 5 } : e)),
      {
        index: 5,
        tag: 'div',
        name: '.card .actions',
        text: '',
        rect: { x: 24, y: 140, width: 300, height: 40 },
        parent: 0,
        styles: BASE,
      },
    ];
    const moved = wrapped.map((e) => (e.index >= 3 ? { ...e, rect: { ...e.rect, y: e.rect.y + 12 } } : e));
    const result = run(moved);
    expect(result.found.differences.map((d) => d.text)).toEqual([
      '`.card .actions` (with the 2 elements in it): 12 px lower than in the reference',
    ]);
  });

  it('a backdrop covering the region is not extra, and elements outside the region are not missing', () => {
    const backdrop: Elem = {
      index: 5,
      tag: 'div',
      name: '.area',
      text: '',
      rect: { x: 0, y: 0, width: 400, height: 300 },
      parent: null,
      styles: { ...BASE, 'background-color': 'rgb(244, 245, 247)' },
    };
    const below: Elem = {
      ...backdrop,
      index: 6,
      name: '.below',
      rect: { x: 0, y: 314, width: 400, height: 50 },
    };
    const result = run([
      ...page().map((e) => (e.parent === null ? { ...e, parent: 5 } : e)),
      backdrop,
      below,
    ]);
    expect(result.found.differences).toEqual([]);
  });

  it('a padding change is named, and the content it pushes is not counted as moved', () => {
    const padded = page().map((e) =>
      e.index === 0
        ? { ...e, styles: { ...e.styles, 'padding-top': '32px', 'padding-left': '32px' } }
        : { ...e, rect: { ...e.rect, x: e.rect.x + 8, y: e.rect.y + 8 } },
    );
    const result = run(padded);
    expect(result.found.differences.map((d) => d.text)).toEqual([
      '`.card`: padding 32px 0px 0px 32px, reference 24px 0px 0px 24px',
    ]);
  });
});

describe('compareImages (ssim.js and pixelmatch as we call them)', () => {
  it('identical images: SSIM 1 and every pixel equal', () => {
    const a = checker(64, 64, 8);
    expect(compareImages(a, checker(64, 64, 8))).toMatchObject({ ssim: 1, pixel: 1, differing: 0 });
  });

  it('flat images of two greys: SSIM is the luminance term (2μxμy + C1)/(μx² + μy² + C1)', () => {
    const c1 = (0.01 * 255) ** 2;
    const expected = (2 * 100 * 150 + c1) / (100 ** 2 + 150 ** 2 + c1);
    const { ssim, pixel } = compareImages(flat(64, 64, [100, 100, 100]), flat(64, 64, [150, 150, 150]));
    expect(ssim).toBeCloseTo(expected, 3);
    expect(pixel).toBe(0);
  });

  it('a pattern shifted by one cell scores near 0; a slight recolour stays high', () => {
    expect(compareImages(checker(64, 64, 8), checker(64, 64, 8, 8)).ssim).toBeLessThan(0.05);
    const recoloured = checker(64, 64, 8);
    for (let i = 0; i < recoloured.data.length; i += 4)
      if (recoloured.data[i] === 220) recoloured.data.set([200, 200, 200], i);
    const { ssim } = compareImages(checker(64, 64, 8), recoloured);
    expect(ssim).toBeGreaterThan(0.9);
    expect(ssim).toBeLessThan(1);
  });

  it('refuses images of different sizes', () => {
    expect(() => compareImages(flat(2, 2, [0, 0, 0]), flat(3, 2, [0, 0, 0]))).toThrow(/differ in size/);
  });
});
