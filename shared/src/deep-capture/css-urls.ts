/**
 * url() references in computed CSS values. The browser reports them absolute and double-quoted
 * (`url("https://…/a.png")`); page stylesheets may write them any way, so both forms are read.
 * Fragment references (`url(#gradient)`) point into the document and are left alone.
 */

const URL_TOKEN = /url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^"')\s]+))\s*\)/gi;

function unescapeCss(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/** The non-fragment URLs a CSS value refers to, in order. */
export function cssUrls(value: string): string[] {
  const out: string[] = [];
  if (!/url\(/i.test(value)) return out;
  for (const m of value.matchAll(URL_TOKEN)) {
    const url = unescapeCss(m[1] ?? m[2] ?? m[3] ?? '');
    if (url !== '' && !url.startsWith('#')) out.push(url);
  }
  return out;
}

/** Replaces each non-fragment url() with `map(url)`; a null mapping becomes `none`-safe `url("")`. */
export function rewriteCssUrls(value: string, map: (url: string) => string | null): string {
  if (!/url\(/i.test(value)) return value;
  return value.replace(URL_TOKEN, (whole, d?: string, s?: string, bare?: string) => {
    const url = unescapeCss(d ?? s ?? bare ?? '');
    if (url === '' || url.startsWith('#')) return whole;
    const mapped = map(url);
    return `url("${(mapped ?? '').replaceAll('\\', '\\\\').replaceAll('"', '\\"')}")`;
  });
}
