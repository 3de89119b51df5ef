/**
 * The computed properties the verify loop compares (DESIGN §8): what a designer checks when a
 * rebuild "looks off" — type, colour, background, spacing, corners, borders, shadow. The extension
 * reads exactly these from the candidate; the reference has them in referenced-elements.json,
 * reduced by the capture (inherited ones only where they change, others only when not initial),
 * so `REFERENCE_DEFAULTS` restores what the reduction left out.
 */

export const INHERITED_STYLE_KEYS = [
  'font-family',
  'font-size',
  'font-weight',
  'line-height',
  'color',
] as const;

const SIDES = ['top', 'right', 'bottom', 'left'] as const;
const CORNERS = ['top-left', 'top-right', 'bottom-right', 'bottom-left'] as const;

export const BOX_STYLE_KEYS = [
  'display',
  'background-color',
  'background-image',
  ...SIDES.map((s) => `padding-${s}`),
  ...SIDES.map((s) => `margin-${s}`),
  'row-gap',
  'column-gap',
  ...CORNERS.map((c) => `border-${c}-radius`),
  ...SIDES.flatMap((s) => [`border-${s}-width`, `border-${s}-style`, `border-${s}-color`]),
  'box-shadow',
  'opacity',
  'visibility',
] as const;

export const VERIFY_STYLE_KEYS: readonly string[] = [...INHERITED_STYLE_KEYS, ...BOX_STYLE_KEYS];

/** Computed initial values of the non-inherited keys (what a reduced reference omits). */
export const REFERENCE_DEFAULTS: Readonly<Record<string, string>> = {
  display: 'inline',
  'background-color': 'rgba(0, 0, 0, 0)',
  'background-image': 'none',
  ...Object.fromEntries(SIDES.map((s) => [`padding-${s}`, '0px'])),
  ...Object.fromEntries(SIDES.map((s) => [`margin-${s}`, '0px'])),
  'row-gap': 'normal',
  'column-gap': 'normal',
  ...Object.fromEntries(CORNERS.map((c) => [`border-${c}-radius`, '0px'])),
  ...Object.fromEntries(
    SIDES.flatMap((s) => [
      [`border-${s}-width`, '0px'],
      [`border-${s}-style`, 'none'],
    ]),
  ),
  'box-shadow': 'none',
  opacity: '1',
  visibility: 'visible',
};

/** Initial values of the inherited keys at the root (font-family depends on the browser: unknown). */
export const INHERITED_ROOT_DEFAULTS: Readonly<Record<string, string>> = {
  'font-size': '16px',
  'font-weight': '400',
  'line-height': 'normal',
  color: 'rgb(0, 0, 0)',
};
