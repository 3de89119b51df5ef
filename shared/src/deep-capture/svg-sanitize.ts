import createDOMPurify from 'dompurify';
import { cssValueIsLocal, decodeCssEscapes, isLocalReference } from './css-safety.js';
import { splitTopLevel } from './css-scan.js';
import {
  IMAGE_ELEMENTS,
  PRESENTATION_ATTRIBUTES,
  REFERENCE_ATTRIBUTES,
  SVG_ATTRIBUTES,
  SVG_ELEMENTS,
} from './svg-allowlist.js';

/**
 * The one sanitizer for every SVG the product writes (inline SVG in a capture and its clone, SVG
 * files under resources/): the markup is parsed as XML by a real DOM (the page's in the extension,
 * jsdom's in the host: shared/src/node/svg-sanitizer.ts), DOMPurify keeps only the allow-listed
 * SVG elements and attributes (svg-allowlist.ts), a hook keeps only references to `#fragments`
 * and to local image files, a `style` attribute becomes presentation attributes (so the clone's
 * policy needs no inline styles), and what is left is written out in one canonical form that reads
 * the same in an XML and an HTML parser. That form is sanitized again and must come back
 * unchanged, or the SVG is refused: a parser disagreement never turns into markup.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SAFE_DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|avif)[;,]/i;

export class SvgRejectedError extends Error {
  constructor(reason: string) {
    super(`SVG refused: ${reason}`);
    this.name = 'SvgRejectedError';
  }
}

export interface SvgSanitizeOptions {
  /** Resolves relative image references; without it they are dropped. */
  baseUrl?: string | null;
  /** Maps an image's absolute URL (or raster `data:` URL) to a local file; null drops it. */
  rewriteUrl?: ((absoluteUrl: string) => string | null) | null;
  /**
   * Keep absolute http(s)/`blob:` image URLs as they are: only for the capture itself, which the
   * host sanitizes again with `rewriteUrl` before anything is written.
   */
  keepRemoteImages?: boolean;
}

export interface SvgSanitizer {
  /** Sanitized markup of one `<svg>`; throws SvgRejectedError when it cannot be read safely. */
  sanitize(markup: string, options?: SvgSanitizeOptions): string;
}

/** What the sanitizer needs of a window: a document and a DOMParser. */
export interface SvgWindow {
  document: Document;
  DOMParser: typeof DOMParser;
}

interface Judging extends SvgSanitizeOptions {
  /** The read-back pass: local references stay as they are. */
  localOnly?: boolean;
}

const escapeText = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const escapeAttr = (s: string) => escapeText(s).replaceAll('"', '&quot;');

/** Whether a non-reference attribute's value loads or runs nothing. */
function valueIsSafe(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these inside schemes
  const squashed = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
  if (/^(?:javascript|vbscript|livescript|data):/.test(squashed)) return false;
  const decoded = decodeCssEscapes(value).toLowerCase();
  if (/url\(|src\(|image-set|@import|expression\(|\/\//.test(decoded)) return cssValueIsLocal(value);
  return true;
}

/** What an `href` may keep: a fragment, or (on an image) a local file or a raster `data:` URL. */
function judgeReference(element: string, raw: string, o: Judging): string | null {
  const value = raw.trim();
  if (value.startsWith('#')) return value;
  if (!IMAGE_ELEMENTS.has(element)) return null;
  if (o.localOnly === true && isLocalReference(value)) return value;
  let candidate: string;
  if (SAFE_DATA_IMAGE.test(value)) candidate = value;
  else {
    try {
      candidate = new URL(value, o.baseUrl ?? undefined).href;
    } catch {
      return null;
    }
    if (!/^(?:https?|blob):/i.test(candidate)) return null;
  }
  if (typeof o.rewriteUrl === 'function') {
    const mapped = o.rewriteUrl(candidate);
    return mapped !== null && isLocalReference(mapped) ? mapped : null;
  }
  if (o.keepRemoteImages === true || SAFE_DATA_IMAGE.test(candidate)) return candidate;
  return null;
}

/** The parsed tree made ready for DOMPurify: text for CDATA, no comments, paint as attributes. */
function prepare(el: Element): void {
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType === 1) prepare(child as Element);
    else if (child.nodeType === 4) child.replaceWith(el.ownerDocument.createTextNode((child as Text).data));
    else if (child.nodeType !== 3) child.remove();
  }
  const style = el.getAttribute('style');
  if (style === null) return;
  el.removeAttribute('style');
  for (const declaration of splitTopLevel(style, ';')) {
    const colon = declaration.indexOf(':');
    const prop = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration
      .slice(colon + 1)
      .replace(/!\s*important\s*$/i, '')
      .trim();
    if (colon > 0 && value !== '' && PRESENTATION_ATTRIBUTES.has(prop) && valueIsSafe(value))
      el.setAttribute(prop, value);
  }
}

/** The canonical markup of a sanitized tree: allow-listed names only, every value escaped. */
function serialize(el: Element, o: Judging, root: boolean): string {
  const name = SVG_ELEMENTS.get(el.localName.toLowerCase());
  if (name === undefined || el.namespaceURI !== SVG_NS) return '';
  let out = `<${name}${root ? ` xmlns="${SVG_NS}"` : ''}`;
  const written = new Set<string>();
  for (const attr of Array.from(el.attributes)) {
    const ns = attr.namespaceURI;
    if (ns !== null && ns !== XLINK_NS && ns !== XML_NS) continue;
    const key =
      ns === XLINK_NS ? `xlink:${attr.localName}` : ns === XML_NS ? `xml:${attr.localName}` : attr.name;
    let canon = SVG_ATTRIBUTES.get(key.toLowerCase());
    if (canon === undefined) continue;
    let value: string | null = attr.value;
    if (REFERENCE_ATTRIBUTES.has(canon)) {
      canon = 'href';
      value = judgeReference(name.toLowerCase(), value, { ...o, rewriteUrl: null, localOnly: true });
    } else if (!valueIsSafe(value)) value = null;
    if (value === null || written.has(canon)) continue;
    written.add(canon);
    out += ` ${canon}="${escapeAttr(value)}"`;
  }
  let inner = '';
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType === 1) inner += serialize(child as Element, o, false);
    else if (child.nodeType === 3 || child.nodeType === 4) inner += escapeText((child as Text).data);
  }
  return `${out}>${inner}</${name}>`;
}

export function createSvgSanitizer(win: SvgWindow | null | undefined): SvgSanitizer {
  if (win?.document === undefined || win.document === null || typeof win.DOMParser !== 'function')
    throw new SvgRejectedError('there is no DOM to parse it with (give the sanitizer a window)');
  const purify = createDOMPurify(win as unknown as Parameters<typeof createDOMPurify>[0]);
  if (!purify.isSupported) throw new SvgRejectedError('DOMPurify cannot work with this DOM');
  const parser = new win.DOMParser();
  let judging: Judging = {};
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    if (REFERENCE_ATTRIBUTES.has(data.attrName)) {
      const kept = judgeReference(node.localName.toLowerCase(), data.attrValue, judging);
      if (kept === null) data.keepAttr = false;
      else data.attrValue = kept;
    } else if (!valueIsSafe(data.attrValue)) data.keepAttr = false;
  });
  // Set once: parsing the configuration on every call costs more than most icons do.
  purify.setConfig({
    ALLOWED_TAGS: [...SVG_ELEMENTS.keys()],
    ALLOWED_ATTR: [...SVG_ATTRIBUTES.keys()],
    ALLOWED_NAMESPACES: [SVG_NS, HTML_NS],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM: true,
  });

  const pass = (markup: string, o: Judging): string => {
    if (/<!DOCTYPE[^>]*\[/i.test(markup)) throw new SvgRejectedError('a doctype with an internal subset');
    const doc = parser.parseFromString(markup, 'image/svg+xml');
    const root = doc.documentElement;
    if (doc.getElementsByTagNameNS('*', 'parsererror').length > 0 || root === null)
      throw new SvgRejectedError('it is not well-formed XML');
    if (root.namespaceURI !== SVG_NS || root.localName !== 'svg')
      throw new SvgRejectedError(`its root is <${root.localName.slice(0, 40)}>, not an SVG <svg>`);
    prepare(root);
    judging = o;
    try {
      const body = purify.sanitize(root) as unknown as HTMLElement;
      const svg = body.firstElementChild;
      if (svg === null || svg.namespaceURI !== SVG_NS || svg.localName !== 'svg')
        throw new SvgRejectedError('nothing drawable was left');
      return serialize(svg, o, true);
    } finally {
      judging = {};
    }
  };

  return {
    sanitize(markup, options = {}) {
      const once = pass(markup, options);
      const again = pass(once, { keepRemoteImages: options.keepRemoteImages === true, localOnly: true });
      if (again !== once) throw new SvgRejectedError('its sanitized form does not read back the same');
      return once;
    },
  };
}
