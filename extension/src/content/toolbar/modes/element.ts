import { domRect, h, visiblePart } from '../dom.js';
import { pageElementAt } from '../dom-inspect.js';
import { ICONS } from '../icons.js';
import type { ToolbarMode } from './mode.js';
import { pointerPick } from './pick-layer.js';

/** Element (E): hover highlights an element with its selector and size; a click captures it. */
export const elementMode: ToolbarMode = {
  name: 'element',
  label: 'Element',
  key: 'e',
  icon: ICONS.element,
  hint: 'Click an element to capture it. Esc to stop.',
  kind: 'tool',
  enter(ctx) {
    const { shield } = pointerPick(
      ctx,
      (el, r) => [
        h('b', {}, el.localName),
        ` ${ctx.selectorOf(el)}  ${Math.round(r.width)}×${Math.round(r.height)}`,
      ],
      (el, layer) => {
        layer.hide();
        void ctx.captureElement(el, 'element', domRect(el.getBoundingClientRect()));
      },
    );
    const signal = ctx.signal;
    // The capture starts on the press: the veil is painted while the button is down, so the
    // click only has to capture. A press that ends in no capture puts the UI back at once.
    shield.addEventListener(
      'pointerdown',
      (e) => {
        if (e.button !== 0 || ctx.busy) return;
        const el = pageElementAt(e.clientX, e.clientY);
        const visible = el ? visiblePart(domRect(el.getBoundingClientRect())) : null;
        if (el && visible) void ctx.veil.lower(visible, { clearOf: el });
      },
      { signal },
    );
    const liftUnlessCapturing = () => {
      if (!ctx.busy && ctx.veil.lowered) ctx.veil.lift();
    };
    // `click` follows `pointerup` in the same task, so by the timeout a capture owns the veil.
    shield.addEventListener('pointerup', () => setTimeout(liftUnlessCapturing, 0), { signal });
    shield.addEventListener('pointercancel', liftUnlessCapturing, { signal });
    signal.addEventListener('abort', liftUnlessCapturing);
    return undefined;
  },
};
