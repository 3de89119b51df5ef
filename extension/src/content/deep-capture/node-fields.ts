import { attributeNames, isAllowedAttribute } from '#shared/deep-capture/attributes.js';

/**
 * Per-element fields that never depend on styles: the attributes a clone needs (the allow-list in
 * shared/src/deep-capture/attributes.ts: no handler, URL or form value), and text. Hidden inputs
 * carry nothing; textarea content is never read (see `isFormValueText`).
 */
export function allowedAttributes(el: Element): Record<string, string> {
  const out: Record<string, string> = {};
  const type = el.localName === 'input' ? (el.getAttribute('type') ?? 'text').toLowerCase() : null;
  if (type === 'hidden') return out;
  for (const name of attributeNames(el.localName)) {
    const value = el.getAttribute(name);
    if (value !== null && isAllowedAttribute(el.localName, name, type)) out[name] = value.slice(0, 4096);
  }
  return out;
}

/** Text inside these is what a user typed or chose: never recorded. */
export function isFormValueText(parent: Element): boolean {
  return parent.localName === 'textarea';
}

/**
 * A text node's text as the clone needs it: where CSS collapses white space, any run of it is one
 * space (rendering is unchanged); elsewhere (pre, pre-wrap…) it is kept exactly.
 */
export function normalizeText(text: string, whiteSpaceCollapse: string): string {
  return whiteSpaceCollapse === 'collapse' ? text.replace(/[ \t\n\r\f]+/g, ' ') : text;
}

export const MAX_OWN_TEXT = 2000;

/** The element's own text for readers of the data: its text runs joined, trimmed, capped. */
export function ownText(runs: readonly string[]): string {
  return runs.join('').replace(/\s+/g, ' ').trim().slice(0, MAX_OWN_TEXT);
}
