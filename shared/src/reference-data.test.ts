import { describe, expect, it } from 'vitest';
import { b64, makePng, referenceData } from '#test/helpers/store-fixtures.js';
import { validationError, type XipeError } from './errors.js';
import { ideaFolderProblem, jsonByteLength, ReferenceData } from './reference-data.js';

function errorOf(data: unknown): XipeError {
  const parsed = ReferenceData.safeParse(data);
  if (parsed.success) throw new Error('expected a validation error');
  return validationError(parsed.error, 'reference data', data);
}

function fields(data: unknown): string[] {
  const issues = errorOf(data).details?.issues as { field: string }[];
  return issues.map((i) => i.field);
}

describe('ReferenceData', () => {
  it('accepts a full valid example and keeps unknown element keys', () => {
    const parsed = ReferenceData.parse(referenceData());
    expect(parsed.idea_folder).toBe('018. Feature-UIUX Reference');
    expect(parsed.elements?.[0]).toMatchObject({ computed_styles: { color: 'rgb(0, 0, 0)' } });
  });

  it.each(['colors', 'elements', 'design_tokens'])('accepts %s as the only section', (section) => {
    const full = referenceData();
    const only = referenceData({ colors: undefined, elements: undefined, design_tokens: undefined });
    only[section] = full[section];
    expect(ReferenceData.safeParse(only).success).toBe(true);
  });

  it.each(['version', 'source_url', 'timestamp', 'idea_folder'])(
    'names missing required field %s',
    (field) => {
      const err = errorOf(referenceData({ [field]: undefined }));
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(fields(referenceData({ [field]: undefined }))).toContain(field);
      expect(err.message).toContain(field);
    },
  );

  it.each(['1.0', '2.0', '3.0'])('accepts version %s', (version) => {
    expect(ReferenceData.safeParse(referenceData({ version })).success).toBe(true);
  });

  it.each(['4.0', '1', 1, null])('refuses version %j, listing the supported ones', (version) => {
    const err = errorOf(referenceData({ version }));
    expect(err.message).toContain('version: expected a supported version: "1.0", "2.0", "3.0", got ');
    expect(err.details?.issues).toEqual([
      expect.objectContaining({ field: 'version', received: JSON.stringify(version) }),
    ]);
  });

  it.each(['yesterday', '2025-01-15', '2025-01-15T10:30:00', '2025-13-01T00:00:00Z', '', 1736937000])(
    'rejects timestamp %j',
    (timestamp) => {
      expect(fields(referenceData({ timestamp }))).toEqual(['timestamp']);
    },
  );

  it.each([
    '2025-01-15T10:30:00Z',
    '2025-01-15T10:30:00.123Z',
    '2025-01-15T10:30:00+02:00',
    '2025-01-15T10:30:00-05:30',
  ])('accepts timestamp %s', (timestamp) => {
    expect(ReferenceData.safeParse(referenceData({ timestamp })).success).toBe(true);
  });

  it.each(['not a url', '/relative/path', 'example.com'])('rejects source_url %j', (source_url) => {
    expect(fields(referenceData({ source_url }))).toEqual(['source_url']);
  });

  it('rejects data with every section empty or missing, naming the sections', () => {
    for (const sections of [
      { colors: [], elements: [], design_tokens: {} },
      { colors: undefined, elements: undefined, design_tokens: undefined },
      { colors: [], elements: undefined, design_tokens: {} },
      { colors: null, elements: null, design_tokens: null },
      { colors: [], elements: null, design_tokens: undefined },
    ]) {
      const err = errorOf(referenceData(sections));
      expect(err.message).toContain(
        '(root): expected at least one of colors, elements, design_tokens present',
      );
    }
  });

  it.each([
    ['../escape', 'separator'],
    ['a/b', 'separator'],
    ['a\\b', 'separator'],
    ['..', 'dots'],
    ['.', 'dots'],
    ['/etc', 'absolute'],
    ['C:evil', 'drive'],
    ['', 'empty'],
    ['a\0b', 'NUL'],
    ['tab\there', 'control'],
    [' padded ', 'whitespace'],
    ['x'.repeat(256), 'too long'],
  ])('rejects idea_folder %j (%s)', (idea_folder) => {
    expect(fields(referenceData({ idea_folder }))).toEqual(['idea_folder']);
  });

  it.each(['018. Feature-UIUX Reference', 'idea', 'Ideé 日本', '..hidden-ish', 'a..b', 'x'.repeat(255)])(
    'accepts idea_folder %j',
    (name) => {
      expect(ideaFolderProblem(name)).toBeNull();
    },
  );

  it('names the field of a bad colour or element', () => {
    const data = referenceData({
      colors: [{ id: 'c1', hex: 'blue', rgb: '300, 0, 0', hsl: '10, 200%, 5%' }],
      elements: [{ id: 'elem-001' }],
    });
    expect(fields(data).sort()).toEqual(
      ['colors.0.hex', 'colors.0.hsl', 'colors.0.id', 'colors.0.rgb', 'elements.0.selector'].sort(),
    );
  });

  it('checks base64 screenshots are PNGs and refuses unknown screenshot kinds', () => {
    const element = (screenshots: unknown) =>
      referenceData({ elements: [{ id: 'elem-001', selector: 'a', screenshots }] });
    expect(
      ReferenceData.safeParse(element({ full_page: b64(makePng()), element_crop: 'screens/a.png' })).success,
    ).toBe(true);
    expect(
      fields(
        element({
          full_page: `base64:${Buffer.from('GIF89a-not-a-png-at-all-but-long-enough').toString('base64')}`,
        }),
      ),
    ).toEqual(['elements.0.screenshots.full_page']);
    expect(fields(element({ element_crop: 'base64:' }))).toEqual(['elements.0.screenshots.element_crop']);
    // Other keys are kept, but never with an image the store would not decode.
    expect(ReferenceData.safeParse(element({ thumbnail: 'screens/t.png' })).success).toBe(true);
    expect(fields(element({ thumbnail: b64(makePng()) }))).toEqual(['elements.0.screenshots.thumbnail']);
  });
});

const ABSENT = Symbol('absent');

/** 3.0 data with every section filled (areas too), `value` set at `path` (ABSENT deletes the key). */
function withValue(path: string, value: unknown): Record<string, unknown> {
  const data = referenceData({ version: '3.0', areas: [{ area_id: 'area-1', instruction: 'hero' }] });
  const keys = path.split('.');
  const last = keys.pop() ?? '';
  let parent: Record<string, unknown> = data;
  for (const key of keys) parent = parent[key] as Record<string, unknown>;
  if (value === ABSENT) delete parent[last];
  else parent[last] = value;
  return data;
}

// Every optional field of reference data: null, absent and a valid value pass; a wrong type fails
// with an issue naming the path, the expectation and the value received.
describe.each([
  ['auth_url', 'https://example.com/login', 42, 'an absolute URL or null', '42'],
  ['session_id', 'ref-session-7', true, 'a string or a number', 'true'],
  ['colors', [{ id: 'color-009', hex: '#fff' }], 'red', 'an array of colours', '"red"'],
  ['elements', [{ id: 'elem-009', selector: 'p' }], {}, 'an array of elements', 'an empty object'],
  ['design_tokens', { spacing: { base: '4px' } }, [1], 'an object', 'an array of 1 item'],
  ['areas', [{ area_id: 'area-2' }], 'x', 'an array of areas', '"x"'],
  ['colors.0.rgb', '1, 2, 3', 7, '"r, g, b" (a string)', '7'],
  ['colors.0.hsl', '1, 2%, 3%', [], '"h, s%, l%" (a string)', 'an empty array'],
  ['colors.0.role', 'primary', 3, 'a string', '3'],
  ['colors.0.source_selector', 'a.b', 1, 'a string', '1'],
  ['colors.0.context', '', false, 'a string', 'false'],
  ['elements.0.tag', 'nav', 5, 'a tag name (a string)', '5'],
  ['elements.0.bounding_box', { x: 1, y: 2, width: 3, height: 4 }, '12px', 'an object', '"12px"'],
  ['elements.0.screenshots', { full_page: null }, 'x', 'an object', '"x"'],
  [
    'elements.0.screenshots.full_page',
    'screenshots/a.png',
    5,
    'a "base64:<PNG>" value, a file path or null',
    '5',
  ],
  [
    'elements.0.screenshots.element_crop',
    'screenshots/b.png',
    {},
    'a "base64:<PNG>" value, a file path or null',
    'an empty object',
  ],
  ['elements.0.comment', 'sticky', 1, 'a string', '1'],
  ['elements.0.extracted_assets', { fonts: [] }, 'x', 'an array or an object', '"x"'],
  ['areas.0.selected_area_bounding_box', { x: 0, y: 0, width: 10, height: 10 }, 3, 'an object', '3'],
  ['areas.0.instruction', 'keep the grid', {}, 'a string', 'an empty object'],
  ['areas.0.screenshot', 'screenshots/area-1.png', 1, 'a file path or null', '1'],
  ['areas.0.elements', [{ element_name: 'title' }], 'x', 'an array of objects', '"x"'],
])('optional field %s', (path, valid, wrong, expected, received) => {
  it.each([
    ['null', null],
    ['absent', ABSENT],
    ['a valid value', valid],
  ])('accepts %s', (_label, value) => {
    const data = withValue(path, value);
    const parsed = ReferenceData.safeParse(data);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    // What was sent is what comes out: null stays null, absent stays absent.
    expect(parsed.data).toEqual(data);
  });

  it('refuses a wrong type, naming the path, the expectation and what came', () => {
    const err = errorOf(withValue(path, wrong));
    const message = `${path}: expected ${expected}, got ${received}`;
    expect(err.message).toContain(message);
    expect(err.details?.issues).toEqual([{ field: path, expected, received, message }]);
  });
});

describe('validation messages', () => {
  it('say what was expected and what came, never a bare "Invalid input"', () => {
    const data = referenceData({
      elements: [{ id: 'elem-001', selector: 'a', bounding_box: { x: 0, y: 0, width: '12px', height: 1 } }],
    });
    expect(errorOf(data).message).toBe(
      'Invalid reference data: elements.0.bounding_box.width: expected a number ≥ 0, got "12px". Correct the field(s) named and try again.',
    );
    const nested = errorOf(referenceData({ colors: [{ id: 'c1', hex: 'blue' }], timestamp: undefined }));
    expect(nested.message).not.toMatch(/Invalid input|Invalid option|Too (small|big)/);
    expect(nested.details?.issues).toEqual([
      expect.objectContaining({ field: 'timestamp', received: 'nothing' }),
      expect.objectContaining({ field: 'colors.0.id', expected: 'an id like "color-001"', received: '"c1"' }),
      expect.objectContaining({ field: 'colors.0.hex', received: '"blue"' }),
    ]);
  });

  it('keep unknown keys at every level', () => {
    const data = referenceData({
      mode: 'mockup',
      static_resources: [{ type: 'font', src: 'https://f.example/a.woff2' }],
      colors: [{ id: 'color-001', hex: '#000', role: 'brand-ink', swatch_note: 'x' }],
      elements: [
        {
          id: 'elem-001',
          selector: 'a',
          instruction: 'keep',
          html_css: { outer_html: null, computed_styles: { color: 'red' } },
          agent_analysis: null,
          bounding_box: { x: 0, y: 0, width: 1, height: 1, unit: 'css-px' },
          screenshots: { full_page: null, thumbnail: 'screens/t.png' },
        },
      ],
    });
    expect(ReferenceData.parse(data)).toEqual(data);
  });
});

describe('jsonByteLength', () => {
  it.each([
    null,
    true,
    0,
    -1.5e-7,
    'plain',
    'quote " and \\ and \n and é and 😀',
    'x'.repeat(5000),
    `${'y'.repeat(5000)}"`,
    [1, 'a', null, { b: [] }],
    { a: 1, b: undefined, c: 'é', 'k"ey': [{}] },
    referenceData(),
  ])('equals the UTF-8 size of JSON.stringify for %#', (value) => {
    expect(jsonByteLength(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
  });
});
