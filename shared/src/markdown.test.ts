import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './markdown.js';

describe('escapeMarkdown', () => {
  it('leaves no link, image, HTML, emphasis, table cell or autolink in page text', () => {
    const text = 'x](http://evil.test/a) ![f](//e) <img src=x> *b* _i_ `c` | # www.evil.test\n## h';
    const escaped = escapeMarkdown(text);
    expect(escaped).not.toContain('\n');
    // With every escaped character taken out, no syntax is left.
    expect(escaped.replace(/\\./g, '')).not.toMatch(/[[\]()<>*_`|#!]|https?:\/\/|www\./);
    // Unescaped, it is the same text.
    expect(escaped.replace(/\\(.)/g, '$1')).toBe(text.replace('\n', ' '));
  });

  it('leaves plain text as it is', () => {
    expect(escapeMarkdown('Inter, sans-serif 400')).toBe('Inter, sans-serif 400');
  });
});
