import { describe, expect, it } from 'vitest';
import { canonicalArea } from '#shared/deep-capture/referenced-elements.js';
import { contentBox, fromReference, isBox } from './model.js';
import { escapeMarkdown } from './report-files.js';

const area = canonicalArea({
  area_id: 'area-1',
  selected_area_bounding_box: { x: 24, y: 80, width: 400, height: 200 },
  elements: [
    {
      element_name: 'area-1-root',
      relationships_to_other_elements: 'area root; contains area-1-h',
      element_details: {
        tag: 'section',
        styles: {
          'font-family': '"Liberation Sans"',
          color: 'rgb(29, 36, 51)',
          'background-color': 'rgb(255, 255, 255)',
        },
        bounding_box: { x: 24, y: 80, width: 400, height: 200 },
      },
    },
    {
      element_name: 'area-1-h',
      relationships_to_other_elements: 'inside area-1-root',
      element_details: {
        tag: 'h2',
        text_content: '  Ship   pages ',
        styles: { 'font-size': '28px', 'padding-left': '4px' },
        bounding_box: { x: 48, y: 104, width: 300, height: 34 },
      },
    },
    { element_name: 'no-box', element_details: { tag: 'p', text_content: 'unplaced' } },
  ],
});

describe('fromReference', () => {
  it('puts boxes relative to the area, restores inherited values from the parent and the rest from initial values', () => {
    const [root, h, ...rest] = fromReference(area);
    expect(rest).toEqual([]);
    expect(root?.rect).toEqual({ x: 0, y: 0, width: 400, height: 200 });
    expect(h).toMatchObject({
      tag: 'h2',
      text: 'Ship pages',
      parent: 0,
      rect: { x: 24, y: 24, width: 300, height: 34 },
    });
    expect(h?.styles).toMatchObject({
      'font-family': '"Liberation Sans"',
      'font-size': '28px',
      'font-weight': '400',
      color: 'rgb(29, 36, 51)',
      'background-color': 'rgba(0, 0, 0, 0)',
      'padding-top': '0px',
      'padding-left': '4px',
      'border-top-color': 'rgb(29, 36, 51)',
    });
    expect(root !== undefined && isBox(root)).toBe(true);
    expect(h !== undefined && isBox(h)).toBe(false);
    expect(h === undefined ? null : contentBox(h)).toEqual({ x: 28, y: 24, width: 296, height: 34 });
  });
});

describe('escapeMarkdown', () => {
  it('leaves page text inert: no links, images, HTML, code spans or new lines', () => {
    const hostile =
      '![x](https://evil.test/p.png) <img src=x onerror=alert(1)> `code` [a](javascript:alert(1))\n# h';
    const escaped = escapeMarkdown(hostile);
    expect(escaped).not.toMatch(/(?<!\\)[[\]()<>`!#]/);
    expect(escaped).not.toContain('\n');
  });
});
