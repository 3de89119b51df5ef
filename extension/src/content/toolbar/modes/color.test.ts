// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { colorMode } from './color.js';
import { fakeContext, frames, installLayout, layout, pointer } from './mode-test-kit.js';

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

describe('colour mode without an EyeDropper', () => {
  it('labels the background under the pointer with the text contrast on it', async () => {
    const ctx = fakeContext();
    await colorMode.enter(ctx);
    expect(ctx.statuses.at(-1)).toBe(colorMode.hint);
    const shield = ctx.overlay.querySelector('.shield');
    if (!shield) throw new Error('no shield');
    shield.dispatchEvent(pointer('pointermove', 50, 45));
    await frames();
    expect(ctx.overlay.querySelector('.label')?.textContent).toBe(' #1a73e8  text #ffffff 4.51:1 AA');
  });

  it('adds the background a click lands on, from the element that paints it, with contrast', async () => {
    const ctx = fakeContext();
    vi.mocked(ctx.suggestedRole).mockReturnValue('primary');
    await colorMode.enter(ctx);
    ctx.overlay.querySelector('.shield')?.dispatchEvent(pointer('click', 50, 45));
    expect(ctx.addColor).toHaveBeenCalledWith({
      hex: '#1a73e8',
      rgb: '26, 115, 232',
      hsl: '214, 82%, 51%',
      role: 'primary',
      page_url: location.href,
      source_selector: '#hero',
      context: 'background of #hero',
      contrast: { against: '#ffffff', ratio: 4.51, rating: 'AA' },
    });
    expect(ctx.suggestedRole).toHaveBeenCalledWith('#1a73e8');
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
