import type { AreaCapture, CaptureNode } from '#shared/deep-capture/area-capture.js';
import { emptyCaptureNode } from '#shared/deep-capture/capture-node.js';

/**
 * Hand-made captures for the unit tests of what consumes an AreaCapture (the clone, tokens, the
 * JSON projection, the host's writer): a node is an empty one with what the test sets, a capture
 * a 400×200 area at the page's (10, 500) with what the test sets.
 */

export function testNode(
  partial: Partial<CaptureNode> & Pick<CaptureNode, 'tag'>,
  rect = { x: 0, y: 0, width: 10, height: 10 },
): CaptureNode {
  return { ...emptyCaptureNode(partial.tag, null), rect, ...partial };
}

export function testCapture(nodes: CaptureNode[], extra: Partial<AreaCapture> = {}): AreaCapture {
  return {
    version: 1,
    url: 'https://site.test/page',
    title: 'Page',
    rect: { x: 10, y: 500, width: 400, height: 200 },
    scroll: { x: 0, y: 500 },
    viewport: { width: 1280, height: 720, dpr: 1 },
    document_mode: null,
    canvas_color: 'rgb(255, 255, 255)',
    backdrop: [],
    clip: null,
    root: 0,
    nodes,
    custom_properties: {},
    fonts: [],
    resources: [],
    diagnostics: {
      elements_hit: nodes.length,
      gaps: 0,
      truncated: false,
      unreadable_sheets: [],
      elapsed_ms: 1,
    },
    ...extra,
  };
}
