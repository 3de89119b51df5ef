import { describe, expect, it } from 'vitest';
import {
  ELEMENT_CROP_PATTERN,
  elementCropFileName,
  FULL_PAGE_PATTERN,
  fullPageFileName,
  nextNumber,
  SESSION_FILE_PATTERN,
  sessionFileName,
} from './numbering.js';

describe('numbering', () => {
  it('starts at 001', () => {
    expect(nextNumber([], SESSION_FILE_PATTERN)).toBe(1);
    expect(sessionFileName(1)).toBe('ref-session-001.json');
  });

  it('is max + 1 and keeps gaps (001, 003 → 004)', () => {
    expect(nextNumber(['ref-session-001.json', 'ref-session-003.json'], SESSION_FILE_PATTERN)).toBe(4);
  });

  it('ignores temp files, lock files and look-alikes', () => {
    const names = [
      'ref-session-002.json',
      '.tmp-123-abcdef',
      '.lock',
      'ref-session-900.json.tmp',
      'ref-session-12.json',
      'ref-session-abc.json',
      'xref-session-500.json',
      'ref-session-700.JSON',
    ];
    expect(nextNumber(names, SESSION_FILE_PATTERN)).toBe(3);
  });

  it('grows past 999 (1000 stays 4 digits) and keeps counting', () => {
    expect(nextNumber(['ref-session-999.json'], SESSION_FILE_PATTERN)).toBe(1000);
    expect(sessionFileName(1000)).toBe('ref-session-1000.json');
    expect(nextNumber(['ref-session-999.json', 'ref-session-1000.json'], SESSION_FILE_PATTERN)).toBe(1001);
  });

  it('numbers each screenshot kind on its own', () => {
    const names = ['full-page-001.png', 'full-page-004.png', 'elem-002-crop.png', '.tmp-1-x'];
    expect(nextNumber(names, FULL_PAGE_PATTERN)).toBe(5);
    expect(nextNumber(names, ELEMENT_CROP_PATTERN)).toBe(3);
    expect(fullPageFileName(5)).toBe('full-page-005.png');
    expect(elementCropFileName(1234)).toBe('elem-1234-crop.png');
  });
});
