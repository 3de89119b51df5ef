import { isLargeText, toHex } from '../color.js';
import { domRect, h, visiblePart } from '../dom.js';
import { toRgba } from '../dom-inspect.js';
import { colorDraft } from '../drafts.js';
import { ICONS } from '../icons.js';
import { pixelAt, textContrast } from '../pixels.js';
import type { ModeContext, ToolbarMode } from './mode.js';
import { pointerPick } from './pick-layer.js';

type EyeDropperCtor = new () => { open(o?: { signal?: AbortSignal }): Promise<{ sRGBHex: string }> };

/**
 * Samples one pixel with the browser's EyeDropper (pixel-true). True when that settled the mode
 * (a colour was added, or the designer pressed Esc); false when there is no usable EyeDropper.
 */
async function sampleWithEyeDropper(ctx: ModeContext): Promise<boolean> {
  const Ctor = (window as { EyeDropper?: EyeDropperCtor }).EyeDropper;
  // Headless Chromium defines EyeDropper but open() never settles (there is no screen to sample).
  if (!Ctor || /HeadlessChrome/.test(navigator.userAgent)) return false;
  ctx.setStatus('Click anywhere on screen to sample a pixel (Esc cancels).');
  try {
    const { sRGBHex } = await new Ctor().open({ signal: ctx.signal });
    const c = toRgba(sRGBHex);
    if (c)
      await ctx.addColor(
        colorDraft(c, ctx.suggestedRole(toHex(c)), { context: 'sampled with the eyedropper' }),
      );
    ctx.finish();
    return true;
  } catch (err) {
    // AbortError: the designer pressed Esc. Anything else: EyeDropper is unusable here (headless).
    return (err as { name?: string }).name === 'AbortError';
  }
}

/** The element shows text of its own (not only its children's). */
function ownText(el: Element): boolean {
  return Array.from(el.childNodes).some(
    (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
  );
}

/**
 * Samples the pixel under the pointer from a capture (what the page paints: a photo, a gradient, a
 * background image, a row inside a shadow root). Over text, the capture covers the element's box,
 * and the contrast is the text colour's against the pixels behind it.
 */
async function samplePixel(ctx: ModeContext, el: Element, at: { x: number; y: number }): Promise<void> {
  const cs = getComputedStyle(el);
  const fg = ownText(el) ? toRgba(cs.color) : null;
  const point = { x: Math.floor(at.x), y: Math.floor(at.y), width: 1, height: 1 };
  const box = fg ? visiblePart(domRect(el.getBoundingClientRect())) : null;
  const area = box ?? point;
  const pixels = await ctx.sample(area);
  if (!pixels) return;
  // Crops start at the rectangle's left and top edges rounded down to whole device pixels.
  const scale = window.devicePixelRatio || 1;
  const color = pixelAt(
    pixels,
    Math.floor(at.x * scale) - Math.floor(area.x * scale),
    Math.floor(at.y * scale) - Math.floor(area.y * scale),
  );
  const contrast = fg && box ? textContrast(pixels, fg) : null;
  const selector = ctx.selectorOf(el);
  await ctx.addColor(
    colorDraft(color, ctx.suggestedRole(toHex(color)), {
      selector,
      context: `pixel at (${point.x}, ${point.y}) on ${selector}`,
      against: contrast?.text,
      ratio: contrast?.ratio,
      large: isLargeText(Number.parseFloat(cs.fontSize), Number.parseInt(cs.fontWeight, 10) || 400),
    }),
  );
}

/**
 * Colour (C): the EyeDropper where the browser offers one; otherwise a click samples the pixel
 * under the pointer from a capture, with the WCAG contrast of the text there against the pixels
 * behind it.
 */
export const colorMode: ToolbarMode = {
  name: 'color',
  label: 'Colour',
  key: 'c',
  icon: ICONS.color,
  hint: 'Click anywhere to pick the colour there. Esc to stop.',
  kind: 'tool',
  async enter(ctx) {
    if (await sampleWithEyeDropper(ctx)) return undefined;
    ctx.setStatus(colorMode.hint);
    pointerPick(
      ctx,
      (el) => {
        const fg = ownText(el) ? toRgba(getComputedStyle(el).color) : null;
        if (!fg) return [h('b', {}, el.localName), ' click samples the pixel'];
        const sw = h('span', { class: 'dot' });
        sw.style.background = toHex(fg);
        sw.style.verticalAlign = 'middle';
        return [sw, ` text ${toHex(fg)} on ${el.localName} — click samples the pixel and rates the contrast`];
      },
      (el, _layer, at) => void samplePixel(ctx, el, at),
    );
    return undefined;
  },
};
