/**
 * SVG markup with nothing that can run or reach out: the one sanitizer for every SVG the product
 * writes (inline SVG in a clone, SVG files under resources/). A small tokenizer, not a DOM, so it
 * runs the same in the page, the worker and the host.
 *
 * Removed: script, foreignObject, style, embedded documents and SMIL animation (which can rewrite
 * attributes, `href` included) with their content; comments, processing instructions and the
 * doctype (a doctype with an internal subset — entity definitions — is refused outright); every
 * `on*` attribute; every URL-bearing attribute except same-document fragments (`#id`) and images
 * the caller maps to a local file or that are `data:image/` (not SVG) URLs; any attribute whose
 * decoded value starts with a script scheme; url()s in `style` attributes other than fragments.
 */

export class SvgRejectedError extends Error {
  constructor(reason: string) {
    super(`SVG refused: ${reason}`);
    this.name = 'SvgRejectedError';
  }
}

export interface SvgSanitizeOptions {
  /** Resolves relative image references; without it they are dropped. */
  baseUrl?: string | null;
  /** Maps an image's absolute URL to what the output should reference; null drops it. */
  rewriteUrl?: ((absoluteUrl: string) => string | null) | null;
}

const DROPPED_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'foreignobject',
  'style',
  'iframe',
  'embed',
  'object',
  'audio',
  'video',
  'animate',
  'animatemotion',
  'animatetransform',
  'animatecolor',
  'set',
  'discard',
  'handler',
  'listener',
]);

const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'data',
  'codebase',
]);
const IMAGE_ELEMENTS: ReadonlySet<string> = new Set(['image', 'feimage']);
const SAFE_DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif);/i;

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1).toLowerCase();

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);?/gi, (_m, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16) || 32);
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10) || 32);
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower] ?? '';
  });
}

function isScriptUrl(value: string): boolean {
  const squashed = decodeEntities(value)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these inside schemes
    .replace(/[\u0000-\u0020]/g, '')
    .toLowerCase();
  return /^(javascript|vbscript|livescript):/.test(squashed) || squashed.startsWith('data:text/html');
}

const escapeAttr = (value: string) => value.replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** Keeps url(#fragment) in a style attribute; any other url() loses its declaration. */
function sanitizeStyleAttr(value: string): string {
  return decodeEntities(value)
    .split(';')
    .filter((decl) => {
      for (const m of decl.matchAll(/url\(\s*["']?([^"')]*)/gi))
        if (!(m[1] ?? '').startsWith('#')) return false;
      return !/expression\s*\(|javascript:/i.test(decl);
    })
    .join(';');
}

function sanitizeUrlAttr(element: string, value: string, options: SvgSanitizeOptions): string | null {
  const raw = decodeEntities(value).trim();
  if (raw.startsWith('#')) return raw;
  if (!IMAGE_ELEMENTS.has(element)) return null;
  if (SAFE_DATA_IMAGE.test(raw)) return raw;
  let absolute: string;
  try {
    absolute = new URL(raw, options.baseUrl ?? undefined).href;
  } catch {
    return null;
  }
  if (!/^(https?|blob):/i.test(absolute)) return null;
  if (options.rewriteUrl === undefined || options.rewriteUrl === null) return absolute;
  return options.rewriteUrl(absolute);
}

const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;

function sanitizeAttributes(element: string, body: string, options: SvgSanitizeOptions): string {
  let out = '';
  for (const m of body.matchAll(ATTRIBUTE)) {
    const name = m[1] ?? '';
    const quoted = m[2];
    const value = quoted === undefined ? '' : /^["']/.test(quoted) ? quoted.slice(1, -1) : quoted;
    const local = localName(name);
    if (local.startsWith('on')) continue;
    let kept: string | null = value;
    if (URL_ATTRIBUTES.has(local)) kept = sanitizeUrlAttr(element, value, options);
    else if (local === 'style') kept = sanitizeStyleAttr(value);
    else if (isScriptUrl(value)) kept = null;
    if (kept === null) continue;
    out += ` ${name}="${escapeAttr(kept)}"`;
  }
  return out;
}

/** Returns sanitized markup; throws SvgRejectedError when the input cannot be read safely. */
export function sanitizeSvg(markup: string, options: SvgSanitizeOptions = {}): string {
  let out = '';
  let skipDepth = 0;
  let i = 0;
  const n = markup.length;
  while (i < n) {
    const lt = markup.indexOf('<', i);
    if (lt === -1) {
      if (skipDepth === 0) out += markup.slice(i);
      break;
    }
    if (skipDepth === 0) out += markup.slice(i, lt);
    if (markup.startsWith('<!--', lt)) {
      const end = markup.indexOf('-->', lt + 4);
      if (end === -1) throw new SvgRejectedError('unterminated comment');
      i = end + 3;
    } else if (markup.startsWith('<![CDATA[', lt)) {
      const end = markup.indexOf(']]>', lt + 9);
      if (end === -1) throw new SvgRejectedError('unterminated CDATA section');
      if (skipDepth === 0) {
        out += markup
          .slice(lt + 9, end)
          .replaceAll('&', '&amp;')
          .replaceAll('<', '&lt;');
      }
      i = end + 3;
    } else if (markup.startsWith('<!', lt) || markup.startsWith('<?', lt)) {
      const end = markup.indexOf('>', lt);
      if (end === -1) throw new SvgRejectedError('unterminated declaration');
      if (markup.slice(lt, end).includes('[')) throw new SvgRejectedError('doctype with an internal subset');
      i = end + 1;
    } else {
      const end = findTagEnd(markup, lt);
      if (end === -1) throw new SvgRejectedError('unterminated tag');
      const tag = markup.slice(lt + 1, end);
      i = end + 1;
      if (tag.startsWith('/')) {
        const name = localName(tag.slice(1).trim());
        if (skipDepth > 0) {
          if (DROPPED_ELEMENTS.has(name)) skipDepth--;
        } else out += `<${tag.trim()}>`;
        continue;
      }
      const selfClosing = tag.endsWith('/');
      const nameEnd = tag.search(/[\s/>]|$/);
      const qualified = tag.slice(0, nameEnd);
      const name = localName(qualified);
      if (skipDepth > 0) {
        if (DROPPED_ELEMENTS.has(name) && !selfClosing) skipDepth++;
        continue;
      }
      if (!/^[a-z][\w:.-]*$/i.test(qualified))
        throw new SvgRejectedError(`bad tag name "${qualified.slice(0, 40)}"`);
      if (DROPPED_ELEMENTS.has(name)) {
        if (!selfClosing) skipDepth++;
        continue;
      }
      const body = tag.slice(nameEnd, selfClosing ? -1 : undefined);
      out += `<${qualified}${sanitizeAttributes(name, body, options)}${selfClosing ? '/' : ''}>`;
    }
  }
  return out;
}

/** Index of the `>` closing the tag opened at `lt`, skipping quoted attribute values. */
function findTagEnd(markup: string, lt: number): number {
  let quote: string | null = null;
  for (let j = lt + 1; j < markup.length; j++) {
    const ch = markup[j];
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '>') return j;
  }
  return -1;
}
