// @vitest-environment happy-dom
import '#test/support/as-user-input.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeContext, frames, installLayout, layout, pointer } from '#test/helpers/toolbar-mode-kit.js';
import { elementMode } from './element.js';

let card: HTMLElement;
let title: HTMLElement;

beforeEach(() => {
  document.body.replaceChildren();
  installLayout();
  card = document.createElement('article');
  card.id = 'card';
  title = document.createElement('h2');
  title.textContent = 'Pricing';
  card.append(title);
  document.body.append(card);
  layout(card, { x: 100, y: 100, width: 300, height: 200 });
  layout(title, { x: 120, y: 120, width: 200, height: 30 });
});

describe('element mode', () => {
  it('offers deep capture, off by default: elements are mostly picked for a look', () => {
    expect(elementMode.deepCapture).toEqual({ on: false });
  });

  it('highlights the deepest element under the pointer with its selector and size', async () => {
    const ctx = fakeContext();
    elementMode.enter(ctx);
    const shield = ctx.overlay.querySelector('.shield');
    const hl = ctx.overlay.querySelector<HTMLElement>('.hl');
    const label = ctx.overlay.querySelector<HTMLElement>('.label');
    if (!shield || !hl || !label) throw new Error('no pick layer');
    expect(hl.style.display).toBe('none');

    shield.dispatchEvent(pointer('pointermove', 130, 130));
    await frames();
    expect(hl.style.display).toBe('block');
    // A frame 4 px outside the h2's 200×30 box at (120, 120): it never covers the element itself.
    expect([hl.style.left, hl.style.top, hl.style.width, hl.style.height]).toEqual([
      '116px',
      '116px',
      '208px',
      '38px',
    ]);
    expect(label.textContent).toBe('h2 h2  200×30');

    shield.dispatchEvent(pointer('pointermove', 350, 250));
    await frames();
    expect(label.textContent).toBe('article #card  300×200');
  });

  it('lowers the veil around the element on the press and captures it on the click', async () => {
    const ctx = fakeContext();
    elementMode.enter(ctx);
    const shield = ctx.overlay.querySelector('.shield');
    if (!shield) throw new Error('no shield');

    shield.dispatchEvent(pointer('pointerdown', 350, 250));
    // Clear of layers floating over the card (a fixed navbar the page scrolled it under).
    expect(ctx.veil.lower).toHaveBeenCalledWith(
      { x: 100, y: 100, width: 300, height: 200 },
      { clearOf: card },
    );
    shield.dispatchEvent(pointer('click', 350, 250));
    expect(ctx.captureElement).toHaveBeenCalledWith(card, 'element', {
      x: 100,
      y: 100,
      width: 300,
      height: 200,
    });
    expect(ctx.overlay.querySelector<HTMLElement>('.hl')?.style.display).toBe('none');
  });

  it('crops to the visible part of an element that runs off the viewport', () => {
    layout(card, { x: 900, y: 700, width: 300, height: 200 });
    const ctx = fakeContext();
    elementMode.enter(ctx);
    ctx.overlay.querySelector('.shield')?.dispatchEvent(pointer('pointerdown', 950, 750));
    expect(ctx.veil.lower).toHaveBeenCalledWith(
      { x: 900, y: 700, width: 100, height: 100 },
      { clearOf: card },
    );
  });

  it('puts the UI back after a press that captured nothing, but not while a capture runs', async () => {
    const ctx = fakeContext();
    elementMode.enter(ctx);
    const shield = ctx.overlay.querySelector('.shield');
    if (!shield) throw new Error('no shield');
    shield.dispatchEvent(pointer('pointerdown', 350, 250));
    shield.dispatchEvent(pointer('pointerup', 350, 250));
    await frames();
    expect(ctx.veil.lift).toHaveBeenCalledTimes(1);

    ctx.busyNow = true;
    shield.dispatchEvent(pointer('pointerdown', 350, 250));
    expect(ctx.veil.lower).toHaveBeenCalledTimes(1); // a press while busy does not lower it again
  });

  it('ignores presses with other buttons', () => {
    const ctx = fakeContext();
    elementMode.enter(ctx);
    ctx.overlay.querySelector('.shield')?.dispatchEvent(pointer('pointerdown', 350, 250, { button: 2 }));
    expect(ctx.veil.lower).not.toHaveBeenCalled();
  });

  it('leaves nothing listening once its signal aborts, and lifts a lowered veil', () => {
    const ctx = fakeContext();
    elementMode.enter(ctx);
    const shield = ctx.overlay.querySelector('.shield');
    if (!shield) throw new Error('no shield');
    shield.dispatchEvent(pointer('pointerdown', 350, 250));
    ctx.abort.abort();
    expect(ctx.veil.lift).toHaveBeenCalled();
    shield.dispatchEvent(pointer('click', 350, 250));
    shield.dispatchEvent(pointer('pointerdown', 350, 250));
    expect(ctx.captureElement).not.toHaveBeenCalled();
    expect(ctx.veil.lower).toHaveBeenCalledTimes(1);
  });
});

describe('element mode: the instant preview', () => {
  const rest = (ms = 220) => new Promise((r) => setTimeout(r, ms));
  // happy-dom has no Web Animations: nothing animates on these pages.
  beforeEach(() => {
    document.getAnimations = () => [];
  });

  it('captures a frame while the pointer rests, and previews from it on the press', async () => {
    const ctx = fakeContext();
    vi.mocked(ctx.restFrame).mockResolvedValue('frame-1');
    elementMode.enter(ctx);
    const shield = ctx.overlay.querySelector('.shield');
    if (!shield) throw new Error('no shield');
    shield.dispatchEvent(pointer('pointermove', 350, 250));
    await rest();
    expect(ctx.restFrame).toHaveBeenCalledWith({ x: 100, y: 100, width: 300, height: 200 });
    shield.dispatchEvent(pointer('pointerdown', 350, 250));
    expect(ctx.preview).toHaveBeenCalledWith(expect.any(Promise), card, {
      x: 100,
      y: 100,
      width: 300,
      height: 200,
    });
    expect(await vi.mocked(ctx.preview).mock.calls[0]?.[0]).toBe('frame-1');
  });

  it('shows no preview once the page changed, or the pointer moved on, since the frame', async () => {
    const ctx = fakeContext();
    vi.mocked(ctx.restFrame).mockResolvedValue('frame-1');
    elementMode.enter(ctx);
    const shield = ctx.overlay.querySelector('.shield');
    if (!shield) throw new Error('no shield');
    shield.dispatchEvent(pointer('pointermove', 350, 250));
    await rest();
    card.setAttribute('data-state', 'open');
    await rest(10);
    shield.dispatchEvent(pointer('pointerdown', 350, 250));
    shield.dispatchEvent(pointer('pointermove', 352, 250));
    shield.dispatchEvent(pointer('pointerdown', 352, 250));
    expect(ctx.preview).not.toHaveBeenCalled();
  });
});
