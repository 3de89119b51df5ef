import { describe, expect, it } from 'vitest';
import { forbiddenReason } from './forbidden-urls.js';

const OWN = 'chrome-extension://gkajpnmdfljgjhdbkbldnadecmdplglg/';

describe('forbiddenReason', () => {
  it.each([
    'chrome://version/',
    'CHROME://settings',
    'chrome-untrusted://print/',
    'edge://extensions',
    'brave://settings',
    'about:blank',
    'view-source:https://example.com/',
    'devtools://devtools/bundled/inspector.html',
    'chrome-extension://aaaabbbbccccddddeeeeffffgggghhhh/popup.html',
    'https://chromewebstore.google.com/detail/foo/abc',
    'https://chrome.google.com/webstore/category/extensions',
    'https://microsoftedge.microsoft.com/addons/detail/x',
  ])('blocks %s', (url) => {
    expect(forbiddenReason(url, OWN)).toEqual(expect.any(String));
  });

  it.each([
    'https://example.com/',
    'http://127.0.0.1:8080/csp',
    'file:///tmp/page.html',
    'https://chrome.google.com/search',
    'https://google.com/webstore',
    'https://evil.example/chromewebstore.google.com',
    `${OWN}demo.html`,
  ])('allows %s', (url) => {
    expect(forbiddenReason(url, OWN)).toBeNull();
  });

  it('explains an empty or invalid URL', () => {
    expect(forbiddenReason('', OWN)).toMatch(/no URL/);
    expect(forbiddenReason('not a url', OWN)).toMatch(/not a valid URL/);
  });
});
