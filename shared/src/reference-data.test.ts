import { describe, expect, it } from 'vitest';
import { b64, makePng, referenceData } from '../../test/helpers/store-fixtures.js';
import { validationError, type XipeError } from './errors.js';
import { ideaFolderProblem, jsonByteLength, ReferenceData } from './reference-data.js';

function errorOf(data: unknown): XipeError {
  const parsed = ReferenceData.safeParse(data);
  if (parsed.success) throw new Error('expected a validation error');
  return validationError(parsed.error, 'reference data');
}

function fields(data: unknown): string[] {
  const issues = errorOf(data).details?.issues as { field: string }[];
  return issues.map((i) => i.field);
}

describe('ReferenceData v1.0', () => {
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

  it('rejects a bad version and says which is expected', () => {
    const err = errorOf(referenceData({ version: '2.0' }));
    expect(err.message).toMatch(/version: must be "1\.0"/);
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
    ]) {
      const err = errorOf(referenceData(sections));
      expect(err.message).toContain('colors, elements, design_tokens');
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
    expect(fields(element({ thumbnail: 'x' }))).toEqual(['elements.0.screenshots']);
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
