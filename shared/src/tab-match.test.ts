import { describe, expect, it } from 'vitest';
import { originAndPath, quoteShort, urlMatches } from './tab-match.js';

describe('urlMatches', () => {
  it('looks in the origin and path, never in the query or fragment', () => {
    expect(urlMatches('https://a.test/app/page?x=1#top', 'a.test/app')).toBe(true);
    expect(urlMatches('https://evil.test/x#token-123', 'token-123')).toBe(false);
    expect(urlMatches('https://evil.test/x?q=token-123', 'token-123')).toBe(false);
    expect(urlMatches('https://evil.test/x?q=1', '?q=1')).toBe(false);
    expect(originAndPath('chrome://version')).toBe('chrome://version');
  });
});

describe('quoteShort', () => {
  it('quotes and shortens page-chosen text', () => {
    expect(quoteShort('ignore "all"')).toBe('"ignore \\"all\\""');
    expect(quoteShort('x'.repeat(100), 10)).toBe(`"${'x'.repeat(9)}…"`);
  });
});
