import type { AreaCapture, CaptureNode, DocumentMode, StyleMap } from '#shared/deep-capture/area-capture.js';
import { isAllowedAttribute } from '#shared/deep-capture/attributes.js';
import type { SvgSanitizer } from '#shared/deep-capture/svg-sanitize.js';

/**
 * The clone's `area-N-structure.html`: the captured tree as HTML with one class per element and
 * no script, handler, link target or form value (the capture never holds them; attributes are
 * re-checked here since this is what gets written). Element names are the page's, except where
 * the HTML parser would restructure the markup (a `<div>` inside a `<p>`, a link inside a link,
 * table parts outside a table): those become a `div`/`span` whose CSS display keeps the layout.
 */

export interface HtmlOptions {
  title: string;
  stylesheet: string;
  names: readonly string[];
  /** The local path of a resource URL (relative to the HTML file), or null when there is none. */
  resourcePath(url: string): string | null;
  /** The local image of a `pixels` node, or null. */
  pixelPath(index: number): string | null;
  /** Sanitizes each inline SVG again (the capture crossed process boundaries). */
  svg: SvgSanitizer;
  /** Whether a clip wrapper and backdrop layers come before the root. */
  backdropCount: number;
  clipped: boolean;
}

const VOID = new Set(['img', 'input', 'br', 'hr', 'wbr', 'col', 'area', 'source', 'track', 'embed']);
const BLOCKS_CLOSING_P = new Set(
  'address article aside blockquote details dialog div dl fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr main menu nav ol p pre section table ul search'.split(
    ' ',
  ),
);
const TABLE_PARENT: Record<string, readonly string[]> = {
  tr: ['table', 'thead', 'tbody', 'tfoot'],
  td: ['tr'],
  th: ['tr'],
  thead: ['table'],
  tbody: ['table'],
  tfoot: ['table'],
  caption: ['table'],
  colgroup: ['table'],
  col: ['colgroup', 'table'],
};
/** Never emitted as themselves: document-level, executable or embedding elements. */
const NEVER = new Set([
  'html',
  'head',
  'body',
  'script',
  'style',
  'link',
  'meta',
  'base',
  'iframe',
  'frame',
  'object',
  'embed',
  'template',
  'slot',
  'form',
  'noscript',
]);

/** The clone's policy: nothing but local images, stylesheets and fonts (no inline styles either). */
export const CLONE_POLICY =
  "default-src 'none'; img-src 'self' file:; style-src 'self' file:; font-src 'self' file:; " +
  "script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

export const escapeText = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
export const escapeAttr = (s: string) => escapeText(s).replaceAll('"', '&quot;');

function isInlineDisplay(styles: StyleMap): boolean {
  const display = styles.display ?? 'inline';
  return display.startsWith('inline') || display === 'contents';
}

/** Tag names after the parser-safety renames, per node. */
function safeTags(nodes: readonly CaptureNode[]): string[] {
  const tags = nodes.map((n) => (n.kind === 'pixels' ? 'img' : n.tag));
  const ancestors = (i: number): number[] => {
    const out: number[] = [];
    for (let p = nodes[i]?.parent ?? null; p !== null; p = nodes[p]?.parent ?? null) out.push(p);
    return out;
  };
  nodes.forEach((node, i) => {
    const tag = tags[i] ?? 'div';
    const up = ancestors(i);
    if (NEVER.has(tag) || !/^[a-z][a-z0-9-]*$/.test(tag))
      tags[i] = isInlineDisplay(node.styles) ? 'span' : 'div';
    else if ((tag === 'a' || tag === 'button') && up.some((a) => tags[a] === tag)) tags[i] = 'span';
    if (BLOCKS_CLOSING_P.has(tags[i] ?? '')) {
      for (const a of up) if (tags[a] === 'p') tags[a] = 'div';
    }
  });
  // A table whose rows sit directly in it would get a parser-made tbody the reset cannot reach.
  nodes.forEach((node, i) => {
    if (tags[i] === 'tr' && node.parent !== null && tags[node.parent] === 'table') tags[node.parent] = 'div';
  });
  // Table parts only inside their own parent (nodes are in document order: parents come first).
  nodes.forEach((node, i) => {
    const allowed = TABLE_PARENT[tags[i] ?? ''];
    const parentTag = node.parent === null ? '' : (tags[node.parent] ?? '');
    if (allowed !== undefined && !allowed.includes(parentTag)) tags[i] = 'div';
  });
  return tags;
}

/** Whether white space between a node's children is insignificant (so the HTML may be indented). */
function indentable(node: CaptureNode, nodes: readonly CaptureNode[], collapse: boolean): boolean {
  if (!collapse || node.children.length === 0) return false;
  return node.children.every((c) => {
    if (typeof c !== 'number') return false;
    const child = nodes[c];
    if (child === undefined) return false;
    const pos = child.styles.position;
    return (
      !isInlineDisplay(child.styles) ||
      pos === 'absolute' ||
      pos === 'fixed' ||
      child.styles.float !== undefined
    );
  });
}

function attributes(node: CaptureNode, tag: string, className: string, src: string | null): string {
  let out = ` class="${className}"`;
  const asImage = tag === 'img' && isImageButton(node);
  if (src !== null) out += ` src="${escapeAttr(src)}"`;
  // A cut at device scale shows at its CSS size: the density descriptor says how many pixels per px.
  const scale = node.pixels?.from_crop === true ? node.pixels.scale : 1;
  if (src !== null && scale !== 1) out += ` srcset="${escapeAttr(src)} ${scale}x"`;
  const type = node.attrs.type ?? null;
  for (const [name, value] of Object.entries(node.attrs)) {
    // Attributes belong to the element's own tag: a renamed element keeps only the global ones.
    const owner = tag === node.tag ? tag : asImage ? 'img' : '';
    if (!isAllowedAttribute(owner, name, type)) continue;
    out += value === '' ? ` ${name}` : ` ${name}="${escapeAttr(value)}"`;
  }
  if (tag === 'img' && !('alt' in node.attrs)) out += ' alt=""';
  return out;
}

const isImageButton = (node: CaptureNode) =>
  node.tag === 'input' && node.attrs.type?.toLowerCase() === 'image';

export function renderHtml(capture: AreaCapture, options: HtmlOptions): string {
  const { nodes } = capture;
  const tags = safeTags(nodes);
  const lines: string[] = [];
  // Icons repeat (a sprite's star on every card): each distinct markup is sanitized once, since
  // the host's DOM parses every SVG twice and a page can hold hundreds of them.
  const sanitized = new Map<string, string>();
  const sanitize = (svg: string): string => {
    let markup = sanitized.get(svg);
    if (markup === undefined) {
      try {
        markup = options.svg.sanitize(svg, { rewriteUrl: options.resourcePath });
      } catch {
        markup = '<svg></svg>';
      }
      sanitized.set(svg, markup);
    }
    return markup;
  };

  const render = (index: number, depth: number, collapse: boolean): string => {
    const node = nodes[index];
    if (node === undefined) return '';
    let tag = tags[index] ?? 'div';
    const name = options.names[index] ?? `node-${index}`;
    if (node.kind === 'svg' && node.svg !== null && node.svg !== '') {
      return sanitize(node.svg).replace(/^<svg\b/, `<svg class="${name}"`);
    }
    let src: string | null = null;
    if (node.kind === 'pixels') src = options.pixelPath(index);
    else if (node.image_src !== null) src = options.resourcePath(node.image_src);
    // An image button without its picture would be drawn as a "Submit" button; the page showed
    // its alt text in the button's box, as an image does.
    if (tag === 'input' && isImageButton(node) && src === null) tag = 'img';
    const open = `<${tag}${attributes(node, tag, name, src)}>`;
    if (VOID.has(tag)) return open;
    const ws = node.styles['white-space-collapse'];
    const childCollapse = ws === undefined ? collapse : ws === 'collapse';
    const indent = indentable(node, nodes, childCollapse);
    const pad = indent ? `\n${'  '.repeat(depth + 1)}` : '';
    let inner = '';
    if (tag !== 'textarea' && node.kind !== 'pixels') {
      for (const child of node.children) {
        inner +=
          pad +
          (typeof child === 'number' ? render(child, depth + 1, childCollapse) : escapeText(child.text));
      }
    }
    if ((tag === 'pre' || tag === 'listing') && inner.startsWith('\n')) inner = `\n${inner}`;
    if (node.scroll !== null) inner += `<span class="${name}-scrolled" aria-hidden="true"></span>`;
    return `${open}${inner}${indent ? `\n${'  '.repeat(depth)}` : ''}</${tag}>`;
  };

  const doctype = cloneDoctype(capture.document_mode);
  if (doctype !== null) lines.push(doctype);
  lines.push('<html>');
  lines.push('<head>');
  lines.push('<meta charset="utf-8">');
  // A clone never runs or loads anything but its own files, whatever a future bug lets into it.
  lines.push(`<meta http-equiv="Content-Security-Policy" content="${CLONE_POLICY}">`);
  lines.push(`<title>${escapeText(options.title)}</title>`);
  lines.push(`<link rel="stylesheet" href="${escapeAttr(options.stylesheet)}">`);
  lines.push('</head>');
  lines.push('<body>');
  lines.push('<div class="area">');
  for (let i = 1; i <= options.backdropCount; i++) lines.push(`  <div class="backdrop-${i}"></div>`);
  const root = render(capture.root, options.clipped ? 2 : 1, true);
  lines.push(options.clipped ? `  <div class="area-clip">\n    ${root}\n  </div>` : `  ${root}`);
  lines.push('</div>');
  lines.push('</body>');
  lines.push('</html>');
  return `${lines.join('\n')}\n`;
}

const DOCTYPE_NAME = /^[a-z][a-z0-9]*$/i;
const DOCTYPE_ID = /^[\w .,:;/()+-]*$/;

/**
 * The clone's doctype: the page's own, so the clone lays out in the page's mode (quirks, limited
 * quirks or standards). Only a doctype made of a plain name and plain public/system ids is copied;
 * a quirks-mode page whose doctype is not is written with none (still quirks); anything else,
 * and captures without a recorded mode, get `<!doctype html>`.
 */
export function cloneDoctype(mode: DocumentMode | null): string | null {
  if (mode === null) return '<!doctype html>';
  const quirks = mode.compat_mode === 'BackCompat';
  if (mode.doctype === null) return quirks ? null : '<!doctype html>';
  const m = /^<!DOCTYPE ([^\s>]+)(?: PUBLIC "([^"]*)"(?: "([^"]*)")?| SYSTEM "([^"]*)")?>$/.exec(
    mode.doctype,
  );
  const ok =
    m !== null &&
    DOCTYPE_NAME.test(m[1] ?? '') &&
    [m[2], m[3], m[4]].every((id) => id === undefined || DOCTYPE_ID.test(id));
  if (ok) return mode.doctype;
  return quirks ? null : '<!doctype html>';
}
