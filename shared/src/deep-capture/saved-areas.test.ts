import { describe, expect, it } from 'vitest';
import { ReferenceData, type ReferenceDataInput } from '../reference-data.js';
import { mergeReferencedElements, type ReferencedElements } from './referenced-elements.js';
import { areasOfSave, carriesArea } from './saved-areas.js';

const base = {
  source_url: 'https://shop.example.com/product/42',
  timestamp: '2026-02-16T11:20:00Z',
  idea_folder: '018. Idea',
};

const parse = (data: Partial<ReferenceDataInput> & { version: ReferenceDataInput['version'] }) =>
  ReferenceData.parse({ ...base, ...data });

/** The original's mockup save: one element carrying html_css and an instruction. */
const mockup = (overrides: Record<string, unknown> = {}) =>
  parse({
    version: '3.0',
    elements: [
      {
        id: 'elem-001',
        selector: 'main > .card',
        tag: 'div',
        bounding_box: { x: 24, y: 180, width: 360, height: 480 },
        screenshots: { full_page: null, element_crop: 'screenshots/elem-001-crop.png' },
        instruction: 'Keep the hover lift',
        html_css: {
          level: 'deep',
          outer_html: '<div class="card"><script>steal()</script><input value="secret"></div>',
          computed_styles: { display: 'flex', 'border-radius': '12px' },
          discovered_elements: [
            {
              element_name: 'price-badge',
              purpose_of_the_element: 'Shows the price',
              relationships_to_other_elements: [{ element: 'card', relationship: 'contained-in' }],
              element_details: { tag: 'span', text_content: '€19', styles: { color: '#fff', opacity: 1 } },
            },
            // The original's raw discovery output, before an agent enriched it.
            { tag: 'img', text: '', computedStyles: { width: '64px' }, resources: [] },
          ],
        },
        ...overrides,
      },
    ],
  });

function fileOf(
  data: ReferenceData,
  existing: ReferencedElements | null,
  session = 'sessions/ref-session-001.json',
) {
  const landed = areasOfSave(data, existing, session);
  if (landed === null) throw new Error('nothing landed');
  return mergeReferencedElements(existing, { source_url: data.source_url, timestamp: 't', ...landed });
}

describe('areasOfSave', () => {
  it('lands nothing for a save without areas, html_css, instructions or static resources', () => {
    const data = parse({ version: '1.0', elements: [{ id: 'elem-001', selector: 'a', comment: 'nice' }] });
    expect(areasOfSave(data, null, 's')).toBeNull();
    expect(carriesArea(mockup().elements?.[0] ?? ({} as never))).toBe(true);
  });

  it('turns an element with html_css into an area: the element first, then what its agent found', () => {
    const file = fileOf(mockup(), null);
    expect(file.areas).toHaveLength(1);
    const area = file.areas[0];
    expect(area).toMatchObject({
      area_id: 'area-1',
      selected_area_bounding_box: { x: 24, y: 180, width: 360, height: 480 },
      instruction: 'Keep the hover lift',
      screenshot: 'screenshots/elem-001-crop.png',
      source_url: base.source_url,
      from_element: { id: 'elem-001', selector: 'main > .card' },
      session: 'sessions/ref-session-001.json',
    });
    expect(area?.elements.map((e) => e.element_name)).toEqual(['elem-001', 'price-badge', 'img']);
    expect(area?.elements[0]?.element_details).toMatchObject({
      tag: 'div',
      styles: { display: 'flex', 'border-radius': '12px' },
      classes: [],
      resources: [],
    });
    expect(area?.elements[1]).toMatchObject({
      purpose_of_the_element: 'Shows the price',
      element_details: { tag: 'span', text_content: '€19', styles: { color: '#fff', opacity: '1' } },
    });
    expect(area?.elements[2]?.element_details).toMatchObject({ tag: 'img', styles: { width: '64px' } });
  });

  it('never copies outer_html: it can hold scripts and typed values', () => {
    expect(JSON.stringify(fileOf(mockup(), null))).not.toMatch(/outer_html|script|secret/);
  });

  it('replaces the area of the same element of the same page, and numbers other elements on', () => {
    let file = fileOf(mockup(), null);
    file = fileOf(parse({ version: '3.0', areas: [{ area_id: 'area-7', instruction: 'hero' }] }), file);
    file = fileOf(mockup({ instruction: 'Keep the badge' }), file, 'sessions/ref-session-003.json');
    expect(file.areas.map((a) => [a.area_id, a.instruction])).toEqual([
      ['area-1', 'Keep the badge'],
      ['area-7', 'hero'],
    ]);
    file = fileOf(mockup({ selector: 'main > .other' }), file);
    expect(file.areas.map((a) => a.area_id)).toEqual(['area-1', 'area-7', 'area-8']);
    const otherPage = ReferenceData.parse({ ...mockup(), source_url: 'https://other.example.com/' });
    expect(fileOf(otherPage, file).areas.map((a) => a.area_id)).toEqual([
      'area-1',
      'area-7',
      'area-8',
      'area-9',
    ]);
  });

  it('takes an instruction alone, and skips an element that points at an area already captured', () => {
    const data = parse({
      version: '1.0',
      elements: [
        { id: 'elem-001', selector: 'nav', instruction: 'Same spacing' },
        { id: 'elem-002', selector: 'main', instruction: 'deep', area_id: 'area-1' },
        { id: 'elem-003', selector: 'footer', instruction: '  ' },
      ],
    });
    const file = fileOf(data, null);
    expect(file.areas).toHaveLength(1);
    expect(file.areas[0]).toMatchObject({
      instruction: 'Same spacing',
      selected_area_bounding_box: null,
      screenshot: null,
      elements: [{ element_name: 'elem-001', element_details: { tag: '', styles: {} } }],
    });
  });

  it('reads 3.0 areas into the canonical form, keeping what it does not know', () => {
    const file = fileOf(
      parse({
        version: '3.0',
        areas: [
          {
            area_id: 'area-2',
            key_elements_identified_from_screenshot: [{ element: 'hero-heading' }],
            elements: [{ element_name: 'hero-heading', element_details: { tag: 'h1', classes: null } }],
          },
        ],
      }),
      null,
    );
    expect(file.areas[0]).toMatchObject({
      area_id: 'area-2',
      instruction: '',
      screenshot: null,
      key_elements_identified_from_screenshot: [{ element: 'hero-heading' }],
      elements: [
        {
          element_name: 'hero-heading',
          element_details: { tag: 'h1', classes: [], text_content: '', resources: [] },
        },
      ],
    });
  });

  it('merges static resources by file, with their usages', () => {
    const font = { type: 'font', src: 'https://f.example/inter.woff2', local_path: 'resources/inter.woff2' };
    let file = fileOf(parse({ version: '3.0', static_resources: [{ ...font, usage: 'Body text' }] }), null);
    file = fileOf(parse({ version: '3.0', static_resources: [{ ...font, usage: 'Headings' }] }), file);
    file = fileOf(
      parse({
        version: '3.0',
        static_resources: [{ type: 'image', src: 'https://f.example/a.png', local_path: null }],
      }),
      file,
    );
    expect(file.static_resources).toEqual([
      { ...font, usage: 'Body text, Headings' },
      { type: 'image', src: 'https://f.example/a.png', local_path: null, usage: '' },
    ]);
  });
});

describe('what a save may say about files', () => {
  it.each([
    ['../../../.ssh/id_rsa', 'no "." or ".." parts'],
    ['resources/../../x.png', 'no "." or ".." parts'],
    ['/etc/passwd', 'a relative path'],
    ['C:\\\\x.png', 'a relative path'],
    ['file:///etc/passwd', 'a relative path'],
  ])('refuses the local_path %s', (localPath, expected) => {
    const result = ReferenceData.safeParse({
      ...base,
      version: '3.0',
      static_resources: [{ type: 'font', src: 'https://f.example/a.woff2', local_path: localPath }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(expected);
    expect(result.error?.issues[0]?.path).toEqual(['static_resources', 0, 'local_path']);
  });

  it('refuses a style value that is not a string or number, naming where it is', () => {
    const result = ReferenceData.safeParse({
      ...base,
      version: '3.0',
      areas: [
        { area_id: 'area-1', elements: [{ element_name: 'x', element_details: { styles: { color: {} } } }] },
      ],
    });
    expect(result.error?.issues[0]?.path).toEqual([
      'areas',
      0,
      'elements',
      0,
      'element_details',
      'styles',
      'color',
    ]);
  });
});
