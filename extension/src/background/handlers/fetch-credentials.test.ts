import { describe, expect, it } from 'vitest';
import { mayCarryCookies } from './fetch-credentials.js';

describe('mayCarryCookies', () => {
  const page = 'https://shop.example/catalog?q=1';
  it('allows the captured page’s own host and scheme only', () => {
    expect(mayCarryCookies('https://shop.example/img/a.png', page)).toBe(true);
    for (const other of [
      'https://cdn.shop.example/a.png',
      'https://evil.example/a.png',
      'http://shop.example/a.png',
      'https://shop.example:8443/a.png',
      'blob:https://shop.example/1',
      'not a url',
    ])
      expect(mayCarryCookies(other, page), other).toBe(false);
  });

  it('allows nothing when the page is not known', () => {
    expect(mayCarryCookies('https://shop.example/a.png', undefined)).toBe(false);
    expect(mayCarryCookies('https://shop.example/a.png', 'about:blank')).toBe(false);
  });
});
