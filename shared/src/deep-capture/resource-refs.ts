import type { BackdropLayer, CaptureNode, ResourceRef, ResourceType, UsedFont } from './area-capture.js';
import { cssUrls } from './css-urls.js';

/**
 * Every file a capture's clone needs, with what uses it: `img` sources, url()s in styles,
 * pseudo-element and state styles, images inside inline SVG, font faces, and the backgrounds of
 * the canvas and the root's ancestors. One entry per URL.
 */

const SVG_IMAGE_HREF = /<(?:\w+:)?(?:image|feImage)\b[^>]*?\s(?:xlink:)?href="([^"#][^"]*)"/gi;

export function collectResourceRefs(
  nodes: readonly CaptureNode[],
  fonts: readonly UsedFont[],
  backdrop: readonly BackdropLayer[] = [],
): ResourceRef[] {
  const byUrl = new Map<string, ResourceRef>();
  const add = (url: string, type: ResourceType, usage: string, node: number | null) => {
    if (url.startsWith('#') || url === '') return;
    const ref = byUrl.get(url) ?? { type, url, usage: [], nodes: [] };
    if (!ref.usage.includes(usage)) ref.usage.push(usage);
    if (node !== null && !ref.nodes.includes(node)) ref.nodes.push(node);
    byUrl.set(url, ref);
  };
  nodes.forEach((node, index) => {
    if (node.image_src !== null) add(node.image_src, 'image', 'img', index);
    const styleMaps = [node.styles, ...Object.values(node.pseudo), ...node.states.map((s) => s.styles)];
    for (const styles of styleMaps) {
      for (const [prop, value] of Object.entries(styles ?? {})) {
        for (const url of cssUrls(value)) add(url, 'image', prop, index);
      }
    }
    if (node.svg !== null) {
      for (const m of node.svg.matchAll(SVG_IMAGE_HREF)) {
        add((m[1] ?? '').replaceAll('&amp;', '&'), 'image', 'svg-image', index);
      }
    }
  });
  // The page background and the ancestors' backgrounds the clone draws under the root.
  for (const layer of backdrop) {
    for (const [prop, value] of Object.entries(layer.styles)) {
      for (const url of cssUrls(value)) add(url, 'image', prop, null);
    }
  }
  for (const font of fonts) if (font.src !== null) add(font.src, 'font', 'font-face', null);
  return [...byUrl.values()];
}
