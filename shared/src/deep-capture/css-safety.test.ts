import { describe, expect, it } from 'vitest';
import { cssValueIsLocal, decodeCssEscapes, isLocalReference } from './css-safety.js';

describe('decodeCssEscapes', () => {
  it('reads hex escapes (with their one optional space), escaped characters and escaped newlines', () => {
    expect(decodeCssEscapes('ht\\74p:\\2f\\2f evil.test')).toBe('http://evil.test');
    expect(decodeCssEscapes('u\\72l(\\"x\\")')).toBe('url("x")');
    expect(decodeCssEscapes('a\\\nb')).toBe('ab');
    expect(decodeCssEscapes('\\0 x\\110000')).toBe('\ufffdx\ufffd');
  });
});

describe('isLocalReference', () => {
  it('takes plain relative paths only', () => {
    expect(isLocalReference('3fa2c4d1e0b9a8f7c6d5.woff2')).toBe(true);
    expect(isLocalReference('resources/a.png')).toBe(true);
    for (const bad of [
      '',
      '/etc/passwd',
      '//evil.test/a',
      'http://evil.test',
      '../a.png',
      'a b.png',
      'c:x',
      '.a',
    ])
      expect(isLocalReference(bad), bad).toBe(false);
  });
});

describe('cssValueIsLocal', () => {
  it('keeps values that load nothing, fragments and local files', () => {
    for (const ok of [
      'rgb(1, 2, 3)',
      'url("#gradient")',
      'url(3fa2c4d1e0b9a8f7c6d5.png) no-repeat, linear-gradient(red, blue)',
      'url("")',
      '"a;b{c}"',
    ])
      expect(cssValueIsLocal(ok), ok).toBe(true);
  });

  it('drops every remote or unjudged reference, however it is spelled', () => {
    for (const bad of [
      'url(http://evil.test/a.png)',
      'URL(ht\\74p:\\2f\\2f evil.test/a.png)',
      "u\\72l('//evil.test/a.png')",
      'url(/etc/passwd)',
      'url(data:image/svg+xml,x)',
      'url(blob:https://site.test/1)',
      'image-set("a.png" 1x)',
      '-webkit-image-set("https://evil.test/a.png" 1x)',
      'src("https://evil.test/f.woff2")',
      'url(a b)',
      'expression(alert(1))',
      '"x" @import',
      'javascript:alert(1)',
    ])
      expect(cssValueIsLocal(bad), bad).toBe(false);
  });
});
