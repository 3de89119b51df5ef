/**
 * Properties that decide what kind of box an element makes, where it sits and how large it is:
 * what a gap placeholder keeps first (the engine's properties.ts) and what the clone writes first
 * in each rule (clone/declarations.ts).
 */
export const BOX_PROPERTIES: readonly string[] = [
  'display',
  'position',
  'top',
  'right',
  'bottom',
  'left',
  'float',
  'clear',
  'box-sizing',
  'width',
  'height',
  'min-width',
  'min-height',
  'max-width',
  'max-height',
];
