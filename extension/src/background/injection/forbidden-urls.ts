/**
 * Pages no extension may script. Chrome refuses them anyway, but checking first gives a clear
 * INJECTION_BLOCKED instead of a raw API error, and never touches the tab.
 */

const BLOCKED_SCHEMES = new Set([
  'chrome:',
  'chrome-untrusted:',
  'chrome-search:',
  'devtools:',
  'edge:',
  'brave:',
  'opera:',
  'vivaldi:',
  'about:',
  'view-source:',
  'chrome-error:',
]);

/** Web stores: Chrome forbids scripting them for every extension. */
const BLOCKED_PAGES: ReadonlyArray<{ host: string; pathPrefix: string }> = [
  { host: 'chromewebstore.google.com', pathPrefix: '/' },
  { host: 'chrome.google.com', pathPrefix: '/webstore' },
  { host: 'microsoftedge.microsoft.com', pathPrefix: '/addons' },
];

/** Why a URL cannot be scripted, or null when it can. `ownOrigin` is this extension's origin. */
export function forbiddenReason(url: string, ownOrigin: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url === '' ? 'the tab has no URL yet (it may still be loading)' : `'${url}' is not a valid URL`;
  }
  const scheme = parsed.protocol.toLowerCase();
  if (BLOCKED_SCHEMES.has(scheme)) {
    return `${scheme}// pages belong to the browser and cannot be scripted by extensions`;
  }
  if (scheme === 'chrome-extension:' || scheme === 'extension:' || scheme === 'moz-extension:') {
    const origin = `${scheme}//${parsed.host}/`;
    if (origin !== ownOrigin) return 'pages of other extensions cannot be scripted';
    return null;
  }
  const host = parsed.hostname.toLowerCase();
  for (const page of BLOCKED_PAGES) {
    if (host === page.host && parsed.pathname.startsWith(page.pathPrefix)) {
      return `${host}${page.pathPrefix === '/' ? '' : page.pathPrefix} is a browser extension store, which no extension may script`;
    }
  }
  return null;
}
