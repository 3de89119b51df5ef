import { inflate, intersect } from '../../../geometry/crop-math.js';
import { domRect, h, visiblePart } from '../dom.js';
import { pageElementAt } from '../dom-inspect.js';
import { ICONS } from '../icons.js';
import { pageAnimations } from '../page-layers.js';
import { trusted } from '../trusted.js';
import type { ToolbarMode } from './mode.js';
import { pointerPick } from './pick-layer.js';

/** How long the pointer rests on an element before its frame is captured for the preview (ms). */
export const REST_MS = 100;

/**
 * Counts what can make a captured frame out of date: page mutations, scrolling, resizing, and the
 * pointer moving (our highlight and label move with it). Only while a picking mode is on.
 */
function changeCounter(shield: HTMLElement, signal: AbortSignal): { readonly version: number } {
  const state = { version: 0 };
  const bump = () => {
    state.version += 1;
  };
  const observer = new MutationObserver(bump);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  signal.addEventListener('abort', () => observer.disconnect());
  window.addEventListener('scroll', bump, { capture: true, passive: true, signal });
  window.addEventListener('resize', bump, { signal });
  shield.addEventListener('pointermove', trusted(bump), { signal });
  return state;
}

/**
 * Element (E): hover highlights an element with its selector and size; a click captures it. While
 * the pointer rests on an element, its frame is captured (when that delays no capture); a press on
 * it, with nothing changed since, shows it in the panel at once while the exact capture runs.
 */
export const elementMode: ToolbarMode = {
  name: 'element',
  label: 'Element',
  key: 'e',
  icon: ICONS.element,
  hint: 'Click an element to capture it. Esc to stop.',
  kind: 'tool',
  // Elements are mostly picked for a look (a colour, a font): deep capture is the designer's choice.
  deepCapture: { on: false },
  enter(ctx) {
    const layer = pointerPick(
      ctx,
      (el, r) => [
        h('b', {}, el.localName),
        ` ${ctx.selectorOf(el)}  ${Math.round(r.width)}×${Math.round(r.height)}`,
      ],
      (el, pick) => {
        pick.hide();
        void ctx.captureElement(el, 'element', domRect(el.getBoundingClientRect()));
      },
    );
    const { shield } = layer;
    const signal = ctx.signal;
    const changes = changeCounter(shield, signal);
    // The frame asked for while the pointer rested: usable on the press if nothing changed since the
    // ask (the frame is grabbed after it; even after the press it shows the element the same way).
    let rest: { frame: Promise<string | null>; el: Element; version: number } | null = null;
    let restTimer: ReturnType<typeof setTimeout> | undefined;
    const takeRest = (x: number, y: number) => {
      const el = pageElementAt(x, y);
      const visible = el ? visiblePart(domRect(el.getBoundingClientRect())) : null;
      if (!el || !visible || ctx.busy) return;
      // The label must not be over the element in the frame (the highlight is drawn around it).
      const label = layer.labelRect();
      if (label && intersect(label, inflate(visible, 2))) return;
      rest = { frame: ctx.restFrame(visible).catch(() => null), el, version: changes.version };
    };
    shield.addEventListener(
      'pointermove',
      trusted((e) => {
        rest = null;
        clearTimeout(restTimer);
        restTimer = setTimeout(() => takeRest(e.clientX, e.clientY), REST_MS);
      }),
      { signal },
    );
    signal.addEventListener('abort', () => clearTimeout(restTimer));
    // The capture starts on the press: the veil is painted while the button is down, so the
    // click only has to capture. A press that ends in no capture puts the UI back at once.
    shield.addEventListener(
      'pointerdown',
      trusted((e) => {
        clearTimeout(restTimer);
        if (e.button !== 0 || ctx.busy) return;
        const el = pageElementAt(e.clientX, e.clientY);
        const visible = el ? visiblePart(domRect(el.getBoundingClientRect())) : null;
        if (!el || !visible) return;
        const fresh = rest?.el === el && rest.version === changes.version && pageAnimations().length === 0;
        if (fresh && rest) ctx.preview(rest.frame, el, visible);
        rest = null;
        void ctx.veil.lower(visible, { clearOf: el });
      }),
      { signal },
    );
    const liftUnlessCapturing = () => {
      if (!ctx.busy && ctx.veil.lowered) {
        ctx.veil.lift();
        ctx.cancelPreview();
      }
    };
    // `click` follows `pointerup` in the same task, so by the timeout a capture owns the veil.
    shield.addEventListener(
      'pointerup',
      trusted(() => setTimeout(liftUnlessCapturing, 0)),
      { signal },
    );
    shield.addEventListener('pointercancel', trusted(liftUnlessCapturing), { signal });
    signal.addEventListener('abort', liftUnlessCapturing);
    return undefined;
  },
};
