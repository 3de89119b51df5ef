import { describe, expect, it } from 'vitest';
import { testCapture, testNode } from '#test/helpers/captures.js';
import type { AreaCapture, CaptureNode } from './area-capture.js';
import { type LocalResource, toReferencedArea } from './referenced-area.js';
import {
  mergeReferencedElements,
  nextAreaId,
  type ReferencedArea,
  ReferencedElements,
} from './referenced-elements.js';

const node = (partial: Partial<CaptureNode> & Pick<CaptureNode, 'tag'>) => testNode(partial);

const capture: AreaCapture = testCapture([], {
  url: 'https://site.test/',
  title: 'Site',
  rect: { x: 100, y: 900, width: 300, height: 200 },
  scroll: { x: 0, y: 900 },
  nodes: [
    node({ tag: 'div', classes: ['card'], children: [1, 2, 3], styles: { display: 'block' } }),
    node({
      tag: 'img',
      parent: 0,
      image_src: 'https://site.test/a.png',
      rect: { x: 10, y: 20, width: 100, height: 50 },
      states: [{ state: 'hover', target: 0, pseudo: null, styles: { opacity: '0.8' } }],
    }),
    node({ tag: 'div', kind: 'gap', parent: 0 }),
    node({
      tag: 'canvas',
      kind: 'pixels',
      parent: 0,
      pixels: { data_url: null, from_crop: true, reason: 'tainted canvas', scale: 1 },
    }),
  ],
  custom_properties: { '--brand': '#123456' },
  fonts: [
    {
      family: 'Inter',
      weight: '400',
      style: 'normal',
      stretch: '100%',
      unicode_range: 'U+0-10FFFF',
      src: 'https://site.test/i.woff2',
      format: 'woff2',
    },
  ],
  resources: [
    { type: 'image', url: 'https://site.test/a.png', usage: ['img'], nodes: [1] },
    { type: 'font', url: 'https://site.test/i.woff2', usage: ['font-face'], nodes: [] },
  ],
  diagnostics: { elements_hit: 3, gaps: 1, truncated: false, unreadable_sheets: [], elapsed_ms: 5 },
});

const files = new Map<string, LocalResource>([
  [
    'https://site.test/a.png',
    { type: 'image', src: 'https://site.test/a.png', local_path: 'resources/aa.png' },
  ],
  [
    'https://site.test/i.woff2',
    { type: 'font', src: 'https://site.test/i.woff2', local_path: 'resources/ff.woff2' },
  ],
]);

const area = (id: string): ReferencedArea =>
  toReferencedArea(capture, {
    areaId: id,
    instruction: 'Rebuild this card',
    screenshot: `screenshots/${id}.png`,
    names: ['card-1', 'image-1', 'gap-1', 'canvas-1'],
    resources: files,
    pixelResource: (i) =>
      i === 3 ? { type: 'image', src: 'pixels of canvas-1', local_path: 'resources/cc.png' } : null,
    clone: { structure_html: `resources/${id}-structure.html`, styles_css: `resources/${id}-styles.css` },
  });

describe('toReferencedArea', () => {
  const a = area('area-1');

  it('keeps every element the area shows, never the gaps', () => {
    expect(a.elements.map((e) => e.element_name)).toEqual(['card-1', 'image-1', 'canvas-1']);
  });

  it('gives each element its details, page-coordinate box, relations, states and files', () => {
    const image = a.elements[1];
    expect(image?.element_details).toMatchObject({
      tag: 'img',
      bounding_box: { x: 110, y: 920, width: 100, height: 50 },
      resources: [
        { type: 'image', src: 'https://site.test/a.png', local_path: 'resources/aa.png', usage: 'img' },
      ],
      states: [{ state: 'hover', on: 'card-1', pseudo: null, styles: { opacity: '0.8' } }],
    });
    expect(image?.relationships_to_other_elements).toBe('inside card-1');
    expect(a.elements[0]?.relationships_to_other_elements).toBe('area root; contains image-1, canvas-1');
    expect(a.elements[2]?.element_details.resources).toEqual([
      { type: 'image', src: 'pixels of canvas-1', local_path: 'resources/cc.png', usage: 'tainted canvas' },
    ]);
  });

  it('is a valid 3.0 area with the clone, fonts and custom properties', () => {
    const file = mergeReferencedElements(null, {
      source_url: capture.url,
      timestamp: '2025-01-01T00:00:00Z',
      areas: [a],
      static_resources: [],
    });
    expect(ReferencedElements.safeParse(file).success).toBe(true);
    expect(a).toMatchObject({
      selected_area_bounding_box: { x: 100, y: 900, width: 300, height: 200 },
      clone: { structure_html: 'resources/area-1-structure.html' },
      fonts: [{ family: 'Inter', local_path: 'resources/ff.woff2' }],
      custom_properties: { '--brand': '#123456' },
    });
  });
});

describe('mergeReferencedElements', () => {
  const statics = (usage: string) => [
    { type: 'image', src: 'https://site.test/a.png', local_path: 'resources/aa.png', usage },
  ];

  it('replaces an area with the same id in place and keeps the others', () => {
    let file = mergeReferencedElements(null, {
      source_url: 'u',
      timestamp: 't1',
      areas: [area('area-1')],
      static_resources: [],
    });
    file = mergeReferencedElements(file, {
      source_url: 'u',
      timestamp: 't2',
      areas: [area('area-2')],
      static_resources: [],
    });
    const replaced = { ...area('area-1'), instruction: 'again' };
    file = mergeReferencedElements(file, {
      source_url: 'u',
      timestamp: 't3',
      areas: [replaced],
      static_resources: [],
    });
    expect(file.areas.map((a) => [a.area_id, a.instruction])).toEqual([
      ['area-1', 'again'],
      ['area-2', 'Rebuild this card'],
    ]);
    expect(file.timestamp).toBe('t3');
  });

  it('keeps one static resource per file, with every usage', () => {
    let file = mergeReferencedElements(null, {
      source_url: 'u',
      timestamp: 't',
      areas: [area('area-1')],
      static_resources: statics('img'),
    });
    file = mergeReferencedElements(file, {
      source_url: 'u',
      timestamp: 't',
      areas: [area('area-2')],
      static_resources: statics('background-image'),
    });
    expect(file.static_resources).toEqual(statics('img, background-image'));
  });

  it('keeps keys it does not know', () => {
    const existing = {
      ...mergeReferencedElements(null, {
        source_url: 'u',
        timestamp: 't',
        areas: [area('area-1')],
        static_resources: [],
      }),
      colors: [{ hex: '#fff' }],
    };
    expect(
      mergeReferencedElements(existing, {
        source_url: 'u',
        timestamp: 't',
        areas: [area('area-2')],
        static_resources: [],
      }),
    ).toHaveProperty('colors', [{ hex: '#fff' }]);
  });
});

describe('nextAreaId', () => {
  it('is one more than the largest id, gaps kept', () => {
    expect(nextAreaId(null)).toBe('area-1');
    const file = mergeReferencedElements(null, {
      source_url: 'u',
      timestamp: 't',
      areas: [area('area-3')],
      static_resources: [],
    });
    expect(nextAreaId(file)).toBe('area-4');
  });
});

describe('ReferencedElements, reading a file', () => {
  it("reads one the original's agent wrote by hand into the canonical form, keeping its own keys", () => {
    const written = {
      version: '3.0',
      source_url: 'https://example.com',
      timestamp: '2026-02-15T10:30:00Z',
      areas: [
        {
          area_id: 'area-1',
          selected_area_bounding_box: { x: 100, y: 200, width: 800, height: 600 },
          key_elements_identified_from_screenshot: [{ element: 'hero-heading', purpose: 'Large heading' }],
          elements: [
            {
              element_name: 'hero-heading',
              purpose_of_the_element: 'Main heading',
              relationships_to_other_elements: [
                { element: 'hero-description', relationship: 'sibling-below' },
              ],
              element_details: {
                tag: 'h1',
                text_content: 'Build',
                styles: { 'font-size': '48px', opacity: 1 },
              },
            },
          ],
        },
      ],
      static_resources: [
        { type: 'font', src: 'https://f/inter.woff2', local_path: 'resources/area-1-font-1.woff2' },
      ],
    };
    const file = ReferencedElements.parse(written);
    expect(file.areas[0]).toMatchObject({
      instruction: '',
      screenshot: null,
      key_elements_identified_from_screenshot: written.areas[0]?.key_elements_identified_from_screenshot,
      elements: [
        {
          relationships_to_other_elements: [{ element: 'hero-description', relationship: 'sibling-below' }],
          element_details: { classes: [], resources: [], styles: { 'font-size': '48px', opacity: '1' } },
        },
      ],
    });
    expect(file.static_resources[0]?.usage).toBe('');
  });

  it('refuses one whose paths climb out of page-element-references/', () => {
    const result = ReferencedElements.safeParse({
      version: '3.0',
      areas: [],
      static_resources: [{ type: 'image', src: 'x', local_path: '../../secrets.png' }],
    });
    expect(result.success).toBe(false);
  });
});
