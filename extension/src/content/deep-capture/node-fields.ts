/**
 * Per-element fields that never depend on styles: the attributes a clone needs, and text.
 *
 * Attributes are allow-listed per element: what changes rendering or meaning (alt, type,
 * placeholder, colspan, open…) and nothing else. No attribute carrying a form value is ever read:
 * `value` only for button-like inputs, whose value is their label; never `checked`/`selected`;
 * textarea content is never read either (see `isFormValueText`).
 */

const GLOBAL = ['role', 'aria-label', 'dir', 'lang', 'title'];

const PER_TAG: Record<string, readonly string[]> = {
  img: ['alt'],
  input: ['type', 'placeholder', 'disabled', 'readonly', 'multiple'],
  button: ['type', 'disabled'],
  select: ['disabled', 'multiple', 'size'],
  textarea: ['placeholder', 'disabled', 'readonly'],
  option: ['label', 'disabled'],
  optgroup: ['label', 'disabled'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan', 'scope'],
  col: ['span'],
  colgroup: ['span'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  details: ['open'],
  dialog: ['open'],
  progress: ['value', 'max'],
  meter: ['value', 'min', 'max', 'low', 'high', 'optimum'],
  abbr: ['title'],
};

/** Inputs whose `value` is the visible label of a button, not something a user typed. */
const BUTTON_INPUTS = new Set(['submit', 'button', 'reset']);

export function allowedAttributes(el: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...GLOBAL, ...(PER_TAG[el.localName] ?? [])]) {
    const value = el.getAttribute(name);
    if (value !== null) out[name] = value.slice(0, 4096);
  }
  if (el.localName === 'input') {
    const type = (el.getAttribute('type') ?? 'text').toLowerCase();
    if (type === 'hidden') return {};
    if (BUTTON_INPUTS.has(type)) {
      const label = el.getAttribute('value');
      if (label !== null) out.value = label.slice(0, 4096);
    }
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
