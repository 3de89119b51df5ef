import { contrastRatio, isLargeText, toHex, wcagRating } from '../color.js';
import { h } from '../dom.js';
import { effectiveBackground, toRgba } from '../dom-inspect.js';
import { colorDraft } from '../drafts.js';
import { ICONS } from '../icons.js';
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

/**
 * Colour (C): the EyeDropper where the browser offers one; otherwise a click takes the first
 * non-transparent background under the pointer, with the text colour's WCAG contrast on it.
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
        const bg = effectiveBackground(el).color;
        const fg = toRgba(getComputedStyle(el).color);
        const sw = h('span', { class: 'dot' });
        sw.style.background = toHex(bg);
        sw.style.verticalAlign = 'middle';
        const ratio = fg ? contrastRatio(fg, bg) : null;
        return [
          sw,
          ` ${toHex(bg)}`,
          ratio ? `  text ${fg ? toHex(fg) : ''} ${ratio.toFixed(2)}:1 ${wcagRating(ratio)}` : '',
        ];
      },
      (el) => {
        const { color, from } = effectiveBackground(el);
        const cs = getComputedStyle(el);
        const source = ctx.selectorOf(from ?? el);
        void ctx.addColor(
          colorDraft(color, ctx.suggestedRole(toHex(color)), {
            selector: source,
            context: `background of ${source}`,
            against: toRgba(cs.color) ?? undefined,
            large: isLargeText(Number.parseFloat(cs.fontSize), Number.parseInt(cs.fontWeight, 10) || 400),
          }),
        );
      },
    );
    return undefined;
  },
};
