import type { CaptureNode } from '#shared/deep-capture/area-capture.js';

/**
 * Readable class names for the clone, one per node: what the element *is* (its ARIA role, or its
 * tag when the tag says it), else what the page called it (its first meaningful class), numbered
 * in document order per word: `header-1`, `nav-1`, `link-1`, `link-2`, `pricing-card-1`. The same
 * names are the `element_name`s of referenced-elements.json, so data and clone point at each
 * other.
 */

const ROLE_WORDS: Record<string, string> = {
  navigation: 'nav',
  banner: 'header',
  contentinfo: 'footer',
  img: 'image',
  listitem: 'item',
  textbox: 'input',
  searchbox: 'search',
  menuitem: 'menu-item',
  presentation: '',
  none: '',
  generic: '',
  group: '',
};

/** Tags whose name says what they are, whatever their classes. */
const TAG_WORDS: Record<string, string> = {
  a: 'link',
  button: 'button',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  p: 'text',
  img: 'image',
  picture: 'picture',
  svg: 'icon',
  ul: 'list',
  ol: 'list',
  dl: 'list',
  li: 'item',
  dt: 'term',
  dd: 'detail',
  input: 'input',
  select: 'select',
  option: 'option',
  textarea: 'textarea',
  label: 'label',
  table: 'table',
  thead: 'table-head',
  tbody: 'table-body',
  tfoot: 'table-foot',
  tr: 'row',
  td: 'cell',
  th: 'header-cell',
  canvas: 'canvas',
  video: 'video',
  iframe: 'frame',
  hr: 'divider',
  br: 'break',
  figcaption: 'caption',
  blockquote: 'quote',
  code: 'code',
  pre: 'code-block',
  strong: 'strong',
  b: 'strong',
  em: 'emphasis',
  i: 'emphasis',
  small: 'small',
};

/** Tags that name a region: used when the element has no meaningful class. */
const REGION_WORDS: Record<string, string> = {
  header: 'header',
  nav: 'nav',
  main: 'main',
  footer: 'footer',
  section: 'section',
  article: 'article',
  aside: 'aside',
  form: 'form',
  figure: 'figure',
  fieldset: 'fieldset',
  div: 'box',
  span: 'span',
  body: 'page',
};

/** Utility classes (Tailwind-like, state flags) say nothing about what an element is. */
const UTILITY =
  /^(?:[a-z]{1,2}-|flex|grid|block|inline|hidden|relative|absolute|fixed|sticky|container|row|col|w-|h-|is-|has-|js-|text-|bg-|font-|items-|justify-|gap-|space-|rounded|shadow|border|overflow|sr-only)/;

/** A class name made into a safe CSS identifier, or null when it is not a good name. */
export function classHint(classes: readonly string[]): string | null {
  for (const raw of classes) {
    // Generated names (css-modules `Card_root__x7Fq2`, styled-components `sc-a1b2c3`) are noise.
    if (/(?:^|[_-])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{5,}$/.test(raw)) continue;
    const slug = raw
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .toLowerCase()
      .replace(/__/g, '-')
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '');
    if (slug.length < 3 || slug.length > 32 || !/^[a-z]/.test(slug) || UTILITY.test(slug)) continue;
    if (/\d{3,}/.test(slug)) continue;
    return slug;
  }
  return null;
}

function wordFor(node: CaptureNode): string {
  if (node.kind === 'gap') return 'gap';
  const role = node.role?.trim().split(/\s+/)[0]?.toLowerCase();
  if (role !== undefined && role !== '' && /^[a-z-]+$/.test(role)) {
    const mapped = ROLE_WORDS[role] ?? role;
    if (mapped !== '') return mapped;
  }
  const tagWord = TAG_WORDS[node.tag];
  if (tagWord !== undefined) return tagWord;
  const hint = classHint(node.classes);
  if (hint !== null) return hint;
  const region = REGION_WORDS[node.tag];
  if (region !== undefined) return region;
  const safeTag = node.tag.replace(/[^a-z0-9-]/g, '');
  return /^[a-z]/.test(safeTag) ? safeTag : 'box';
}

/** One class name per node, in node order. `area`, `area-clip` and `backdrop-N` are reserved. */
export function nodeClassNames(nodes: readonly CaptureNode[]): string[] {
  const counts = new Map<string, number>();
  return nodes.map((node) => {
    let word = wordFor(node);
    if (word === 'area' || word === 'backdrop' || word === 'area-clip') word = `${word}-el`;
    const n = (counts.get(word) ?? 0) + 1;
    counts.set(word, n);
    return `${word}-${n}`;
  });
}
