import { describe, expect, it } from 'vitest';
import { cssUrls, rewriteCssUrls } from './css-urls.js';

describe('cssUrls', () => {
  it('reads quoted, unquoted and escaped url()s and skips fragments', () => {
    expect(
      cssUrls('url("https://a.test/x.png"), url(b.png), url(\'c d.png\'), url("#clip"), url("e\\"f.png")'),
    ).toEqual(['https://a.test/x.png', 'b.png', 'c d.png', 'e"f.png']);
    expect(cssUrls('linear-gradient(red, blue)')).toEqual([]);
  });
});

describe('rewriteCssUrls', () => {
  it('maps each URL, empties the ones without a local file and leaves fragments', () => {
    const map = (url: string) => (url === 'https://a.test/x.png' ? 'abc.png' : null);
    expect(
      rewriteCssUrls(
        'url("https://a.test/x.png") center / cover, url(https://gone.test/y.png), url(#m)',
        map,
      ),
    ).toBe('url("abc.png") center / cover, url(""), url(#m)');
  });
});
