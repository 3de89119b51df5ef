// @vitest-environment happy-dom
import '#test/support/as-user-input.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeContext, installLayout, layout, pointer } from '#test/helpers/toolbar-mode-kit.js';
import { areaMode } from './area.js';
import type { ModeSession } from './mode.js';

let header: HTMLElement;
let logo: HTMLElement;
let main: HTMLElement;

beforeEach(() => {
  document.body.replaceChildren();
  installLayout();
  header = document.createElement('header');
  logo = document.createElement('img');
  header.append(logo);
  main = document.createElement('main');
  main.id = 'content';
  document.body.append(header, main);
  layout(document.body, { x: 0, y: 0, width: 1000, height: 2000 });
  layout(header, { x: 0, y: 0, width: 1000, height: 80 });
  layout(logo, { x: 20, y: 20, width: 120, height: 40 });
  layout(main, { x: 0, y: 80, width: 1000, height: 1900 });
});

function enter() {
  const ctx = fakeContext();
  const session = areaMode.enter(ctx) as ModeSession;
  const shield = ctx.overlay.querySelector('.shield');
  if (!shield) throw new Error('no shield');
  return { ctx, session, shield };
}

function box(overlay: HTMLElement): HTMLElement {
  const el = overlay.querySelector<HTMLElement>('.area');
  if (!el) throw new Error('no area box');
  return el;
}

const rectOf = (el: HTMLElement) => [el.style.left, el.style.top, el.style.width, el.style.height];

describe('area mode', () => {
  it('offers the semantic section under the pointer to snap to', () => {
    const { ctx, shield } = enter();
    shield.dispatchEvent(pointer('pointermove', 50, 40));
    const hl = ctx.overlay.querySelector<HTMLElement>('.hl.section');
    expect(hl?.style.display).toBe('block');
    expect(ctx.overlay.querySelector('.label')?.textContent).toBe('header header — click to snap');
  });

  it('draws a rectangle by dragging, with eight handles and its size in the label', () => {
    const { ctx, shield } = enter();
    shield.dispatchEvent(pointer('pointerdown', 100, 200));
    shield.dispatchEvent(pointer('pointermove', 102, 201)); // under 4 px: still a click
    expect(ctx.overlay.querySelector('.area')).toBeNull();
    shield.dispatchEvent(pointer('pointermove', 400, 500));
    shield.dispatchEvent(pointer('pointerup', 400, 500));
    const area = box(ctx.overlay);
    expect(rectOf(area)).toEqual(['100px', '200px', '300px', '300px']);
    expect(area.querySelectorAll('.handle')).toHaveLength(8);
    expect(ctx.overlay.querySelector('.label')?.textContent).toBe('area 300×300');
  });

  it('snaps to the section on a click and captures it on confirm, named by that section', async () => {
    // A wrapper filling <main>: the snapped section, not the smallest box around the area, names it.
    const wrapper = document.createElement('div');
    main.append(wrapper);
    layout(wrapper, { x: 0, y: 80, width: 1000, height: 1900 });
    const { ctx, session, shield } = enter();
    shield.dispatchEvent(pointer('pointerdown', 500, 400));
    shield.dispatchEvent(pointer('pointerup', 501, 401));
    // The visible part of <main>: the viewport is 800 px tall.
    expect(rectOf(box(ctx.overlay))).toEqual(['0px', '80px', '1000px', '720px']);
    expect(ctx.overlay.querySelector('.label')?.textContent).toBe('area 1000×720  #content');
    session.confirm?.();
    // The capture runs with the shield still up (no :hover); the mode ends after it.
    expect(ctx.captureElement).toHaveBeenCalledWith(main, 'area', { x: 0, y: 80, width: 1000, height: 720 });
    expect(ctx.finish).not.toHaveBeenCalled();
    expect(ctx.overlay.querySelector('.shield')).not.toBeNull();
    await Promise.resolve();
    await Promise.resolve();
    expect(ctx.finish).toHaveBeenCalled();
  });

  it('moves the selection by its body and resizes it by a handle', () => {
    const { ctx, shield } = enter();
    shield.dispatchEvent(pointer('pointerdown', 100, 100));
    shield.dispatchEvent(pointer('pointermove', 300, 200));
    shield.dispatchEvent(pointer('pointerup', 300, 200));
    const area = box(ctx.overlay);
    area.dispatchEvent(pointer('pointerdown', 150, 150));
    area.dispatchEvent(pointer('pointermove', 170, 190));
    area.dispatchEvent(pointer('pointerup', 170, 190));
    expect(rectOf(area)).toEqual(['120px', '140px', '200px', '100px']);

    const se = area.querySelector('.handle[data-h="se"]');
    if (!se) throw new Error('no se handle');
    se.dispatchEvent(pointer('pointerdown', 320, 240));
    se.dispatchEvent(pointer('pointermove', 350, 260));
    expect(rectOf(area)).toEqual(['120px', '140px', '230px', '120px']);
    area.dispatchEvent(pointer('pointermove', 400, 400)); // the drag ended with the handle's pointerup only
    se.dispatchEvent(pointer('pointerup', 350, 260));
    se.dispatchEvent(pointer('pointermove', 500, 500));
    expect(rectOf(area)).toEqual(['120px', '140px', '230px', '120px']);
  });

  it('captures a drawn rectangle with the smallest element that contains it', async () => {
    const { ctx, session, shield } = enter();
    shield.dispatchEvent(pointer('pointerdown', 10, 10));
    shield.dispatchEvent(pointer('pointermove', 160, 70));
    shield.dispatchEvent(pointer('pointerup', 160, 70));
    session.confirm?.();
    await Promise.resolve();
    expect(ctx.captureElement).toHaveBeenCalledWith(header, 'area', { x: 10, y: 10, width: 150, height: 60 });
  });

  it('does nothing on confirm before there is a selection; Cancel stops the mode', () => {
    const { ctx, session, shield } = enter();
    session.confirm?.();
    expect(ctx.captureElement).not.toHaveBeenCalled();
    shield.dispatchEvent(pointer('pointerdown', 100, 100));
    shield.dispatchEvent(pointer('pointermove', 300, 200));
    shield.dispatchEvent(pointer('pointerup', 300, 200));
    const cancel = [...box(ctx.overlay).querySelectorAll('button')].find((b) => b.textContent === 'Cancel');
    cancel?.click();
    expect(ctx.stop).toHaveBeenCalled();
    expect(ctx.captureElement).not.toHaveBeenCalled();
  });

  it('offers deep capture, on by default: an area is usually taken to be rebuilt', () => {
    expect(areaMode.deepCapture).toEqual({ on: true });
  });
});
