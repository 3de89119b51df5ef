/**
 * The attributes a capture may carry and a clone may write, per element: what changes rendering
 * or meaning (alt, type, placeholder, colspan, open…) and nothing else — no handler, no URL, no
 * form value. The engine reads only these; the clone writer re-checks them, since the capture
 * crosses process boundaries and is written to disk.
 */

const GLOBAL: readonly string[] = ['role', 'aria-label', 'dir', 'lang', 'title'];

const PER_TAG: Readonly<Record<string, readonly string[]>> = {
  img: ['alt'],
  input: ['type', 'placeholder', 'disabled', 'readonly', 'multiple', 'alt'],
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
const BUTTON_INPUTS: ReadonlySet<string> = new Set(['submit', 'button', 'reset']);

/** Whether `tag` may carry attribute `name` (with the element's own `type` for inputs). */
export function isAllowedAttribute(tag: string, name: string, inputType: string | null): boolean {
  if (GLOBAL.includes(name) || (PER_TAG[tag] ?? []).includes(name)) return true;
  return tag === 'input' && name === 'value' && BUTTON_INPUTS.has((inputType ?? 'text').toLowerCase());
}

/** The attribute names to read for `tag`, in a stable order. */
export function attributeNames(tag: string): readonly string[] {
  return tag === 'input'
    ? [...GLOBAL, ...(PER_TAG.input ?? []), 'value']
    : [...GLOBAL, ...(PER_TAG[tag] ?? [])];
}
