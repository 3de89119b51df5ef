/**
 * Whether a CSS value we write can reach anything: judged on the value as the CSS parser will read
 * it — escapes decoded (`ht\74p:\2f\2f` is `http://`) and case folded (`URL(` is `url(`) — by
 * allow-list: every `url()`/`src()` must name a fragment or a local file, and nothing else that
 * loads, runs or leaves the value (`@import`, `expression(`, script schemes, `//`) may appear.
 * Conservative on purpose: a value it cannot be sure of is dropped, never repaired.
 */

/** The text after CSS escape decoding (CSS Syntax §4.3.7), so judging sees what the parser sees. */
export function decodeCssEscapes(text: string): string {
  return text.replace(/\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(\r\n|[\n\r\f])|([\s\S]))/g, (_m, hex, nl, ch) => {
    if (hex !== undefined) {
      const code = Number.parseInt(hex, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
        ? '\ufffd'
        : String.fromCodePoint(code);
    }
    if (nl !== undefined) return '';
    return ch ?? '';
  });
}

/**
 * A reference to a file next to the one that names it: a relative path of plain segments (no
 * scheme, no `//`, no leading `/`, no `..`), the way the clone names its resources.
 */
export function isLocalReference(url: string): boolean {
  if (url === '' || url.length > 512) return false;
  const segments = url.split('/');
  return segments.every((s) => /^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(s) && s !== '..');
}

const REFERENCE = /(?:url|src)\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)/g;
const OPENINGS = /(?:url|src)\(/g;
const FORBIDDEN =
  /@import|expression\(|-moz-binding|behavior\s*:|javascript:|vbscript:|data:|blob:|\/\/|<\/?style/;
/** Functions whose plain string arguments are URLs too (`image-set("a.png" 1x)`). */
const STRING_URL_FUNCTIONS = /(?:image-set|image|cross-fade|element)\(/;

/** Whether `value` (a declaration's value) loads nothing but fragments and local files. */
export function cssValueIsLocal(value: string): boolean {
  const decoded = decodeCssEscapes(value).toLowerCase();
  if (FORBIDDEN.test(decoded)) return false;
  let references = 0;
  for (const m of decoded.matchAll(REFERENCE)) {
    references++;
    const target = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (target !== '' && !target.startsWith('#') && !isLocalReference(target)) return false;
  }
  // Every url( must have been one the pattern read whole: anything else is not judged, so not kept.
  if ((decoded.match(OPENINGS)?.length ?? 0) !== references) return false;
  if (STRING_URL_FUNCTIONS.test(decoded) && /["']/.test(decoded.replace(REFERENCE, ''))) return false;
  return true;
}
