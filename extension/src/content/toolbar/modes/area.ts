import type { CssRect } from '#shared/toolbar-messages.js';
import { type Handle, rectFromPoints, resizeRect } from '../../../geometry/crop-math.js';
import { domRect, h, place, visiblePart } from '../dom.js';
import { elementContaining, pageElementAt, semanticSection } from '../dom-inspect.js';
import { ICONS } from '../icons.js';
import { barSpot } from '../panel-place.js';
import { trusted } from '../trusted.js';
import type { ModeContext, ToolbarMode } from './mode.js';
import { PickLayer } from './pick-layer.js';

const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/** Below this size (CSS px, both ways) a press is a click that snaps, not a drag. */
const DRAG_MIN = 4;

interface Selection {
  rect: CssRect;
  /** The section a click snapped to (names the area); null once drawn or changed by hand. */
  anchor: Element | null;
}

/**
 * Area (A): drag a rectangle, or click to snap to the nearest semantic section; move it, resize it
 * with eight handles; Capture (or Enter) crops exactly that rectangle.
 */
export const areaMode: ToolbarMode = {
  name: 'area',
  label: 'Area',
  key: 'a',
  icon: ICONS.area,
  hint: 'Drag a rectangle, or click to snap to a section. Enter captures, Esc cancels.',
  kind: 'tool',
  // An area is usually taken to be rebuilt: deep capture is on unless the designer turns it off.
  deepCapture: { on: true },
  enter(ctx) {
    return runArea(ctx);
  },
};

function runArea(ctx: ModeContext): { confirm(): void } {
  const signal = ctx.signal;
  const layer = new PickLayer(ctx.overlay);
  const { shield, hl } = layer;
  hl.classList.add('section');
  let start: { x: number; y: number } | null = null;
  let selection: Selection | null = null;
  let box: HTMLDivElement | null = null;
  let bar: HTMLDivElement | null = null;
  let hovered: Element | null = null;

  const buildBox = (): HTMLDivElement => {
    const el = h('div', { class: 'area' });
    for (const handle of HANDLES) {
      const grip = h('div', { class: 'handle', 'data-h': handle });
      grip.addEventListener(
        'pointerdown',
        trusted((e) => dragBox(e, handle)),
        { signal },
      );
      el.append(grip);
    }
    const ok = h('button', { class: 'btn', type: 'button' }, 'Capture ⏎');
    const cancel = h('button', { class: 'btn secondary', type: 'button' }, 'Cancel');
    ok.addEventListener(
      'click',
      trusted(() => void confirm()),
      { signal },
    );
    cancel.addEventListener(
      'click',
      trusted(() => ctx.stop()),
      { signal },
    );
    bar = h('div', { class: 'area-bar' }, cancel, ok);
    el.append(bar);
    el.addEventListener(
      'pointerdown',
      trusted((e) => {
        if (e.target === el) dragBox(e, null);
      }),
      { signal },
    );
    ctx.overlay.append(el);
    return el;
  };

  const draw = () => {
    if (!selection) return;
    box ??= buildBox();
    const { rect, anchor } = selection;
    place(box, rect);
    ctx.avoid(rect);
    if (bar) {
      const size = bar.getBoundingClientRect();
      const viewport = { width: window.innerWidth, height: window.innerHeight };
      const spot = barSpot(rect, { width: size.width, height: size.height }, viewport, ctx.panelRect());
      bar.style.left = `${spot.x - rect.x}px`;
      bar.style.top = `${spot.y - rect.y}px`;
    }
    layer.label(rect, [
      h('b', {}, 'area'),
      ` ${Math.round(rect.width)}×${Math.round(rect.height)}${anchor ? `  ${ctx.selectorOf(anchor)}` : ''}`,
    ]);
  };

  /** Moves (handle null) or resizes the selection. */
  const dragBox = (e: PointerEvent, handle: Handle | null) => {
    if (!selection || !box) return;
    e.preventDefault();
    e.stopPropagation();
    const origin = { x: e.clientX, y: e.clientY, rect: selection.rect };
    const target = e.currentTarget as HTMLElement;
    target.setPointerCapture(e.pointerId);
    const move = trusted((ev: PointerEvent) => {
      if (!selection) return;
      const dx = ev.clientX - origin.x;
      const dy = ev.clientY - origin.y;
      selection = {
        rect: handle
          ? resizeRect(origin.rect, handle, dx, dy)
          : { ...origin.rect, x: origin.rect.x + dx, y: origin.rect.y + dy },
        anchor: null,
      };
      draw();
    });
    const up = trusted(() => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    });
    target.addEventListener('pointermove', move, { signal });
    target.addEventListener('pointerup', up, { signal });
  };

  const confirm = async () => {
    if (!selection) return;
    const { rect, anchor } = selection;
    const el = anchor ?? elementContaining(rect);
    // The shield stays up until the capture is done: without it the page would get :hover (a
    // row's delete button) under the pointer for the moment of the capture.
    await ctx.captureElement(el, 'area', rect);
    ctx.finish();
  };

  shield.addEventListener(
    'pointerdown',
    trusted((e) => {
      e.preventDefault();
      start = { x: e.clientX, y: e.clientY };
      shield.setPointerCapture(e.pointerId);
    }),
    { signal },
  );
  shield.addEventListener(
    'pointermove',
    trusted((e) => {
      if (start) {
        const r = rectFromPoints(start, { x: e.clientX, y: e.clientY });
        if (r.width < DRAG_MIN && r.height < DRAG_MIN) return;
        hl.style.display = 'none';
        selection = { rect: r, anchor: null };
        draw();
        return;
      }
      if (selection) return;
      const section = semanticSection(pageElementAt(e.clientX, e.clientY));
      if (section === hovered) return;
      hovered = section;
      if (!section) {
        layer.hide();
        return;
      }
      const r = domRect(section.getBoundingClientRect());
      layer.highlight(r, [h('b', {}, section.localName), ` ${ctx.selectorOf(section)} — click to snap`]);
      ctx.avoid(r);
    }),
    { signal },
  );
  shield.addEventListener(
    'pointerup',
    trusted((e) => {
      const from = start;
      start = null;
      if (!from) return;
      const r = rectFromPoints(from, { x: e.clientX, y: e.clientY });
      if (r.width >= DRAG_MIN || r.height >= DRAG_MIN) return;
      // A click, not a drag: snap to the nearest semantic section.
      const section = semanticSection(pageElementAt(e.clientX, e.clientY));
      if (!section) return;
      const vis = visiblePart(domRect(section.getBoundingClientRect()));
      if (!vis) return;
      hl.style.display = 'none';
      selection = { rect: vis, anchor: section };
      draw();
    }),
    { signal },
  );
  return { confirm: () => void confirm() };
}
