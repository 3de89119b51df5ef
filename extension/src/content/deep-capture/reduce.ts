import type { StyleMap } from '#shared/deep-capture/area-capture.js';
import { CURRENTCOLOR_DEFAULT, INHERITED, isRecordable } from './properties.js';

/**
 * The style reduction: of an element's ~450 computed values, keep only those the clone cannot
 * get for free. The clone resets every element to CSS initial values (`all: unset`, so inherited
 * properties still inherit), which makes the rule simple and exact:
 *
 *   - an inherited property is recorded when it differs from the clone parent's computed value
 *     (for the clone's root: from the initial value, since nothing above it is kept);
 *   - any other property is recorded when it differs from its initial value.
 *
 * The browser reports some values resolved against the element itself, which would differ from
 * the initial value while meaning the same thing: `currentcolor` defaults come back as the
 * element's colour, and `transform-origin: 50% 50%` as half the box in px. Those are recognised.
 * Pure: it sees computed styles only through the `Computed` lookups, so it is unit-tested with
 * plain maps.
 */

/** A computed style lookup: the value the browser reports for a property (`''` when unknown). */
export type Computed = (property: string) => string;

export interface ReduceInput {
  /** Property names to consider (the browser's computed longhands). */
  names: readonly string[];
  own: Computed;
  /** The clone parent's computed style; null for the clone's root. */
  parent: Computed | null;
  /** CSS initial values, as computed values. */
  initial: ReadonlyMap<string, string>;
  /** The element's border-box size, to recognise the default transform and perspective origins. */
  box: { width: number; height: number };
}

const CENTERED_ORIGINS: ReadonlySet<string> = new Set(['transform-origin', 'perspective-origin']);

export function reduceStyles(input: ReduceInput): StyleMap {
  const { own, parent, initial } = input;
  const out: StyleMap = {};
  const color = own('color');
  for (const name of input.names) {
    if (!isRecordable(name)) continue;
    const value = own(name);
    if (value === '') continue;
    if (INHERITED.has(name)) {
      if (!differsFromInherited(name, value, color, parent, initial)) continue;
    } else {
      if (value === initial.get(name) || equivalentToDefault(name, value)) continue;
      if (CURRENTCOLOR_DEFAULT.has(name) && value === color) continue;
      if (CENTERED_ORIGINS.has(name) && isCentered(value, input.box)) continue;
    }
    out[name] = value;
  }
  keepLineWidths(out, own);
  return out;
}

const LINES = [
  ...['top', 'right', 'bottom', 'left'].map((s) => [`border-${s}-style`, `border-${s}-width`]),
  ['outline-style', 'outline-width'],
  ['column-rule-style', 'column-rule-width'],
] as const;

/**
 * A line whose style draws (`solid`, …) keeps its width even when that equals the probe's:
 * with no style the initial width computes to 0px, but in the clone, where the style is set, the
 * initial `medium` draws 3px (CSS resets that set `border-style: solid` with no width, as
 * Bootstrap's reboot does on every table cell, would grow frames everywhere).
 */
function keepLineWidths(out: StyleMap, own: Computed): void {
  for (const [style, width] of LINES) {
    const drawn = out[style];
    if (drawn === undefined || drawn === 'none' || drawn === 'hidden' || out[width] !== undefined) continue;
    const value = own(width);
    if (value !== '') out[width] = value;
  }
}

function differsFromInherited(
  name: string,
  value: string,
  color: string,
  parent: Computed | null,
  initial: ReadonlyMap<string, string>,
): boolean {
  const inherited = parent === null ? initial.get(name) : parent(name);
  if (value === inherited) return false;
  if (!CURRENTCOLOR_DEFAULT.has(name)) return true;
  // `currentcolor` inherits as a keyword: when the parent's value was its own colour and this one
  // is this element's colour, the clone gets it by inheritance.
  const parentColor = parent === null ? initial.get('color') : parent('color');
  return !(value === color && inherited === parentColor);
}

/**
 * Values that differ from the probe's report but not from what the clone's element gets anyway:
 * `min-width/height: auto` is reported as is for flex and grid items (the probe, not one, reports
 * `0px`), and the clone's item resolves it the same way; `unicode-bidi` is not reset by `all`, its
 * browser default depends on the tag (`isolate` for div, `normal` for span), and `normal` and
 * `isolate` only differ for text that mixes directions (its `dir` attributes are kept).
 */
function equivalentToDefault(name: string, value: string): boolean {
  if (name === 'min-width' || name === 'min-height') return value === 'auto';
  if (name === 'unicode-bidi') return value === 'normal' || value === 'isolate';
  return false;
}

/** `"40px 12.5px"` (or with a third `0px`) is the centre of a `width × height` box; so is `50% 50%`. */
export function isCentered(value: string, box: { width: number; height: number }): boolean {
  // Boxless elements (inline, pseudo-elements without a box) report the specified percentages.
  if (/^50% 50%( 0px)?$/.test(value)) return true;
  const parts = value.split(' ');
  if (parts.length < 2 || parts.length > 3) return false;
  const [x, y, z] = parts.map((p) => (p.endsWith('px') ? Number.parseFloat(p) : Number.NaN));
  if (x === undefined || y === undefined) return false;
  const near = (a: number, b: number) => Math.abs(a - b) < 0.01;
  return near(x, box.width / 2) && near(y, box.height / 2) && (z === undefined || z === 0);
}

/**
 * Pseudo-elements inherit from their element: inherited properties are compared with the
 * element, everything else with initial values (the clone resets `::before`/`::after` too).
 * `content` is always kept when it makes the pseudo-element exist.
 */
export function reducePseudoStyles(input: ReduceInput): StyleMap {
  const out = reduceStyles(input);
  const content = input.own('content');
  if (content !== '' && content !== 'normal' && content !== 'none') out.content = content;
  return out;
}

/** Keeps only `names` of a style map (what a `gap` placeholder needs of an element). */
export function pickStyles(styles: StyleMap, names: readonly string[]): StyleMap {
  const out: StyleMap = {};
  for (const name of names) {
    const value = styles[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
