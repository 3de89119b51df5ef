// @vitest-environment happy-dom
import '#test/support/as-user-input.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeContext, frames, installLayout, layout, pointer } from '#test/helpers/toolbar-mode-kit.js';
import { colorMode } from './color.js';

let hero: HTMLElement;
let text: HTMLElement;

beforeEach(() => {
  document.body.replaceChildren();
  installLayout();
  hero = document.createElement('section');
  hero.id = 'hero';
  hero.style.backgroundColor = 'rgb(26, 115, 232)';
  text = document.createElement('p');
  text.style.color = 'rgb(255, 255, 255)';
  text.style.fontSize = '16px';
  text.textContent = 'Start free';
  hero.append(text);
  document.body.append(hero);
  layout(hero, { x: 0, y: 0, width: 800, height: 400 });
  layout(text, { x: 40, y: 40, width: 200, height: 20 });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A capture of `rect` as the page paints it: `fill` everywhere, white glyph columns every 4th px. */
function painted(rect: { width: number; height: number }, fill: number[], glyphs = false) {
  const data = new Uint8ClampedArray(rect.width * rect.height * 4);
  for (let i = 0; i < rect.width * rect.height; i++) {
    const white = glyphs && (i % rect.width) % 4 === 0;
    data.set(white ? [255, 255, 255, 255] : [...fill, 255], i * 4);
  }
  return { width: rect.width, height: rect.height, data };
}

describe('colour mode without an EyeDropper', () => {
  it('labels text with its colour, and says a click samples the pixel', async () => {
    const ctx = fakeContext();
    await colorMode.enter(ctx);
    expect(ctx.statuses.at(-1)).toBe(colorMode.hint);
    const shield = ctx.overlay.querySelector('.shield');
    if (!shield) throw new Error('no shield');
    shield.dispatchEvent(pointer('pointermove', 50, 45));
    await frames();
    expect(ctx.overlay.querySelector('.label')?.textContent).toBe(
      ' text #ffffff on p — click samples the pixel and rates the contrast',
    );
  });

  it('adds the pixel a click lands on, with the contrast of the text on the pixels behind it', async () => {
    const ctx = fakeContext();
    vi.mocked(ctx.suggestedRole).mockReturnValue('primary');
    // The CSS background says #1a73e8; the page paints #10243f there (a photo under a gradient).
    vi.mocked(ctx.sample).mockResolvedValue(painted({ width: 200, height: 20 }, [16, 36, 63], true));
    await colorMode.enter(ctx);
    ctx.overlay.querySelector('.shield')?.dispatchEvent(pointer('click', 50, 45));
    await frames();
    // The capture covers the text's box, so the contrast can be read from it.
    expect(ctx.sample).toHaveBeenCalledWith({ x: 40, y: 40, width: 200, height: 20 });
    expect(ctx.addColor).toHaveBeenCalledWith({
      hex: '#10243f',
      rgb: '16, 36, 63',
      hsl: '214, 59%, 15%',
      role: 'primary',
      page_url: location.href,
      source_selector: 'p',
      context: 'pixel at (50, 45) on p',
      contrast: { against: '#ffffff', ratio: 15.6, rating: 'AAA' },
    });
    expect(ctx.suggestedRole).toHaveBeenCalledWith('#10243f');
  });

  it('samples just the pixel where there is no text', async () => {
    const ctx = fakeContext();
    vi.mocked(ctx.sample).mockResolvedValue(painted({ width: 1, height: 1 }, [77, 65, 57]));
    await colorMode.enter(ctx);
    ctx.overlay.querySelector('.shield')?.dispatchEvent(pointer('click', 600, 300));
    await frames();
    expect(ctx.sample).toHaveBeenCalledWith({ x: 600, y: 300, width: 1, height: 1 });
    expect(ctx.addColor).toHaveBeenCalledWith(
      expect.objectContaining({
        hex: '#4d4139',
        source_selector: '#hero',
        context: 'pixel at (600, 300) on #hero',
      }),
    );
    expect(vi.mocked(ctx.addColor).mock.calls[0]?.[0].contrast).toBeUndefined();
  });
});

describe('colour mode with an EyeDropper', () => {
  function stubEyeDropper(open: (o?: { signal?: AbortSignal }) => Promise<{ sRGBHex: string }>) {
    vi.stubGlobal(
      'EyeDropper',
      class {
        open = open;
      },
    );
  }

  it('samples a pixel, adds it and ends the mode without a pick layer', async () => {
    stubEyeDropper(async () => ({ sRGBHex: '#ff0000' }));
    const ctx = fakeContext();
    await colorMode.enter(ctx);
    expect(ctx.statuses).toContain('Click anywhere on screen to sample a pixel (Esc cancels).');
    expect(ctx.addColor).toHaveBeenCalledWith(
      expect.objectContaining({ hex: '#ff0000', role: 'custom', context: 'sampled with the eyedropper' }),
    );
    expect(ctx.finish).toHaveBeenCalled();
    expect(ctx.overlay.querySelector('.shield')).toBeNull();
  });

  it('ends quietly when Esc aborts the EyeDropper', async () => {
    stubEyeDropper(
      (o) =>
        new Promise((_, reject) => {
          o?.signal?.addEventListener('abort', () => reject(new DOMException('cancelled', 'AbortError')));
        }),
    );
    const ctx = fakeContext();
    const entered = colorMode.enter(ctx);
    ctx.abort.abort();
    await entered;
    expect(ctx.addColor).not.toHaveBeenCalled();
    expect(ctx.overlay.querySelector('.shield')).toBeNull();
  });

  it('falls back to picking by element when the EyeDropper cannot open', async () => {
    stubEyeDropper(async () => {
      throw new DOMException('no screen', 'NotAllowedError');
    });
    const ctx = fakeContext();
    await colorMode.enter(ctx);
    expect(ctx.statuses.at(-1)).toBe(colorMode.hint);
    expect(ctx.overlay.querySelector('.shield')).not.toBeNull();
    expect(ctx.finish).not.toHaveBeenCalled();
  });

  it('is not used in headless Chromium, whose EyeDropper never settles', async () => {
    const open = vi.fn(async () => ({ sRGBHex: '#000000' }));
    stubEyeDropper(open);
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 HeadlessChrome/140.0');
    const ctx = fakeContext();
    await colorMode.enter(ctx);
    expect(open).not.toHaveBeenCalled();
    expect(ctx.overlay.querySelector('.shield')).not.toBeNull();
  });
});
