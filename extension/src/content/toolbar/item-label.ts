import { DESIGNER_WORDS } from '#shared/element-words.js';

/**
 * What a designer calls a picked element: "Button 'Start free'", "Section 'Services'",
 * "Card 2 of 3 'Pro'". A selector such as `div.row > div:nth-of-type(2)…` tells two items apart
 * for a machine, not for a person scanning the list. Names come from what the page shows or
 * announces (aria-label, alt, a heading inside, the first words of text), never a field's value.
 */

const KIND_BY_ROLE: Record<string, string> = {
  button: 'Button',
  link: 'Link',
  navigation: 'Navigation',
  banner: 'Header',
  contentinfo: 'Footer',
  heading: 'Heading',
  img: 'Image',
  listitem: 'Item',
  dialog: 'Dialog',
  tab: 'Tab',
  menu: 'Menu',
};

const INLINE_TEXT = new Set(['span', 'em', 'strong', 'b', 'i', 'small', 'mark', 'code', 'sup', 'sub']);

const MAX_NAME = 32;

const squash = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();

function shorten(s: string): string {
  return s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1).trimEnd()}…` : s;
}

function kindOf(el: Element): string {
  const role = el.getAttribute('role');
  if (role && KIND_BY_ROLE[role]) return KIND_BY_ROLE[role] as string;
  const tag = el.localName;
  if (tag === 'a' && /\bbtn\b|button/i.test(el.getAttribute('class') ?? '')) return 'Button';
  if (tag === 'input') {
    const type = (el.getAttribute('type') ?? 'text').toLowerCase();
    if (type === 'submit' || type === 'button' || type === 'reset') return 'Button';
  }
  if (INLINE_TEXT.has(tag)) return 'Text';
  return DESIGNER_WORDS[tag] ?? (tag === 'div' ? 'Block' : `<${tag}>`);
}

/** The name a page gives the element: what a screen reader would start with, shortened. */
function nameOf(el: Element, kind: string): string {
  const announced = squash(el.getAttribute('aria-label')) || squash(el.getAttribute('alt'));
  if (announced) return announced;
  if (kind === 'Field') {
    // A field's label or placeholder; never its value.
    const id = el.getAttribute('id');
    const label = id ? el.ownerDocument.querySelector(`label[for="${CSS.escape(id)}"]`) : el.closest('label');
    return (
      squash(label?.textContent) || squash(el.getAttribute('placeholder')) || squash(el.getAttribute('name'))
    );
  }
  if (kind === 'Button' && el.localName === 'input') return squash(el.getAttribute('value'));
  // A container is known by its heading; anything else by its own first words.
  const heading = /^(Section|Article|Header|Footer|Main|Sidebar|Form|Block|Item|Card|Dialog|Figure)/.test(
    kind,
  )
    ? el.querySelector('h1, h2, h3, h4, h5, h6, [role="heading"], legend, figcaption')
    : null;
  return squash(heading?.textContent) || squash(el.textContent);
}

/** "Card 2 of 3" when the element is one of several alike siblings (same tag and classes). */
function positionAmongAlike(el: Element): { index: number; count: number } | null {
  const parent = el.parentElement;
  if (!parent) return null;
  const cls = el.getAttribute('class') ?? '';
  const alike = [...parent.children].filter(
    (c) => c.localName === el.localName && (c.getAttribute('class') ?? '') === cls,
  );
  if (alike.length < 2) return null;
  return { index: alike.indexOf(el) + 1, count: alike.length };
}

export function designerLabel(el: Element): string {
  if (el.localName === 'html' || el.localName === 'body') return 'Page';
  let kind = kindOf(el);
  const position = positionAmongAlike(el);
  if (position && (kind === 'Block' || kind === 'Article' || kind === 'Item' || kind === 'Section')) {
    kind = `${kind === 'Item' ? 'Item' : 'Card'} ${position.index} of ${position.count}`;
  }
  const name = shorten(nameOf(el, kind));
  return name ? `${kind} '${name}'` : kind;
}
