import type { CaptureNode } from './area-capture.js';

/**
 * A node with nothing recorded yet: the engine starts options and gaps from it, tests build their
 * captures on it. Its own module, without zod, so the engine bundle stays free of it.
 */
export function emptyCaptureNode(tag: string, parent: number | null): CaptureNode {
  return {
    kind: 'element',
    tag,
    parent,
    children: [],
    classes: [],
    role: null,
    aria_label: null,
    text: '',
    rect: { x: 0, y: 0, width: 0, height: 0 },
    attrs: {},
    styles: {},
    pseudo: {},
    states: [],
    image_src: null,
    svg: null,
    pixels: null,
    shadow: false,
    scroll: null,
  };
}
