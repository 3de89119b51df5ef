/**
 * Unique CSS selector generation. Works on a minimal element interface so it is unit-testable
 * without a DOM; in the page, `resolves` is backed by `querySelectorAll`, and every candidate is
 * verified to match exactly the picked element (the original generator emitted `:nth-child`
 * paths that did not). Preference: stable id → test attributes → stable classes → the shortest
 * `:nth-of-type` path anchored at the nearest stable id.
 */

export interface SelectorElement {
  readonly tagName: string;
  readonly id: string;
  readonly parentElement: SelectorElement | null;
  readonly children: ArrayLike<SelectorElement>;
  getAttribute(name: string): string | null;
}

/** True when `selector` matches exactly one element in the document and it is `el`. */
export type Resolver = (selector: string, el: SelectorElement) => boolean;

const TEST_ATTRIBUTES = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
const NAME_TAGS = new Set(['input', 'select', 'textarea', 'button', 'form', 'iframe', 'meta']);

/** CSS.escape as specified (CSSOM §2.1.5), so this module also runs in Node. */
export function cssEscape(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const ch = value.charAt(i);
    if (code === 0) out += '\uFFFD';
    else if (
      (code >= 0x1 && code <= 0x1f) ||
      code === 0x7f ||
      (i === 0 && code >= 0x30 && code <= 0x39) ||
      (i === 1 && code >= 0x30 && code <= 0x39 && value.charCodeAt(0) === 0x2d)
    )
      out += `\\${code.toString(16)} `;
    else if (i === 0 && value.length === 1 && code === 0x2d) out += `\\${ch}`;
    else if (code >= 0x80 || code === 0x2d || code === 0x5f || /[0-9A-Za-z]/.test(ch)) out += ch;
    else out += `\\${ch}`;
  }
  return out;
}

function attrValue(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ')}"`;
}

/**
 * Heuristic for ids and classes a framework generated (they change between builds or renders):
 * React useId (`:r1:`), CSS-in-JS hashes (`css-1x2y3z`, `sc-aXbYc`), CSS-modules suffixes
 * (`Button_root__3xK9a`), long digit runs, and utility classes with state variants.
 */
export function looksGenerated(token: string): boolean {
  if (token.length === 0 || token.length > 40) return true;
  if (/^:|:$/.test(token)) return true;
  if (/^(css|sc|jsx|emotion|styled|svelte)-[a-z0-9]{4,}/i.test(token)) return true;
  if (/__[a-zA-Z0-9_-]{5,}$/.test(token)) return true;
  if (/\d{4,}/.test(token)) return true;
  if (/^[a-z]{1,3}[A-Z0-9][a-zA-Z0-9]{4,}$/.test(token) && /[0-9]/.test(token) && /[A-Z]/.test(token))
    return true;
  if (/[:[\]/!@%]/.test(token)) return true;
  return false;
}

function tagOf(el: SelectorElement): string {
  return el.tagName.toLowerCase();
}

function stableClasses(el: SelectorElement): string[] {
  const raw = el.getAttribute('class') ?? '';
  return raw
    .split(/\s+/)
    .filter((c) => c.length > 0 && !looksGenerated(c))
    .slice(0, 6);
}

function nthOfType(el: SelectorElement): { index: number; count: number } {
  const parent = el.parentElement;
  if (!parent) return { index: 1, count: 1 };
  let index = 0;
  let count = 0;
  const tag = el.tagName;
  for (let i = 0; i < parent.children.length; i++) {
    const sib = parent.children[i];
    if (!sib || sib.tagName !== tag) continue;
    count += 1;
    if (sib === el) index = count;
  }
  return { index, count };
}

/** Candidates that identify the element on its own, best first. */
function selfCandidates(el: SelectorElement): string[] {
  const tag = tagOf(el);
  const out: string[] = [];
  if (el.id && !looksGenerated(el.id)) out.push(`#${cssEscape(el.id)}`);
  for (const attr of TEST_ATTRIBUTES) {
    const v = el.getAttribute(attr);
    if (v) out.push(`[${attr}=${attrValue(v)}]`);
  }
  const name = el.getAttribute('name');
  if (name && NAME_TAGS.has(tag)) out.push(`${tag}[name=${attrValue(name)}]`);
  const classes = stableClasses(el);
  for (const c of classes) out.push(`${tag}.${cssEscape(c)}`);
  for (let i = 0; i < classes.length; i++)
    for (let j = i + 1; j < classes.length; j++) {
      const a = classes[i];
      const b = classes[j];
      if (a && b) out.push(`${tag}.${cssEscape(a)}.${cssEscape(b)}`);
    }
  const aria = el.getAttribute('aria-label');
  if (aria && aria.length <= 60) out.push(`${tag}[aria-label=${attrValue(aria)}]`);
  return out;
}

/**
 * Path segments for `el`, most readable first: `tag.class`, then `tag:nth-of-type(n)` and
 * `tag.class:nth-of-type(n)` when siblings share the tag.
 */
function segments(el: SelectorElement): string[] {
  const tag = tagOf(el);
  const classes = stableClasses(el).slice(0, 3);
  const { index, count } = nthOfType(el);
  const out = classes.map((c) => `${tag}.${cssEscape(c)}`);
  const first = classes[0];
  if (count > 1) {
    out.push(`${tag}:nth-of-type(${index})`);
    if (first) out.push(`${tag}.${cssEscape(first)}:nth-of-type(${index})`);
  } else out.push(tag);
  return out;
}

/** The nearest ancestor's own unique selector (id or test attribute), used to anchor paths. */
function anchorOf(el: SelectorElement, resolves: Resolver): string | null {
  for (const c of selfCandidates(el)) {
    if (c.startsWith('#') || c.startsWith('[')) {
      if (resolves(c, el)) return c;
    }
  }
  return null;
}

export function uniqueSelector(el: SelectorElement, resolves: Resolver): string {
  for (const c of selfCandidates(el)) if (resolves(c, el)) return c;

  // Walk up one level at a time, combining each segment of the current element with the best
  // few paths found below it (readable class forms first), alone and anchored at the parent's id.
  // The fully positional path is always kept, so the walk ends with a unique selector.
  let tails: string[] = [];
  let positional = '';
  let node: SelectorElement | null = el;
  while (node) {
    const parent: SelectorElement | null = node.parentElement;
    const tag = tagOf(node);
    if (tag === 'html') {
      positional = positional ? `html > ${positional}` : 'html';
      break;
    }
    const options = segments(node);
    const combined: string[] = [];
    for (const seg of options) {
      if (tails.length === 0) combined.push(seg);
      for (const t of tails) combined.push(`${seg} > ${t}`);
    }
    const anchor = parent ? anchorOf(parent, resolves) : null;
    for (const candidate of combined.slice(0, 12)) {
      if (tag !== 'body' && resolves(candidate, el)) return candidate;
      if (anchor && resolves(`${anchor} > ${candidate}`, el)) return `${anchor} > ${candidate}`;
    }
    const own = options.find((o) => o.includes(':nth-of-type')) ?? tag;
    positional = positional ? `${own} > ${positional}` : own;
    tails = [...new Set([...combined.slice(0, 3), positional])];
    node = parent;
  }
  // A full nth-of-type path from <html> is unique by construction for elements in the document.
  return positional;
}
