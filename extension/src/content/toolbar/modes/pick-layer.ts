import type { CssRect } from '#shared/toolbar-messages.js';
import { domRect, h, place } from '../dom.js';
import { pageElementAt } from '../dom-inspect.js';
import { trusted } from '../trusted.js';
import type { ModeContext } from './mode.js';

type LabelParts = (string | Node)[];

/** The highlight frame's distance outside the element (CSS px): clear of the crop's 2-device-px ring. */
const HL_GAP = 4;
/** The label's height (CSS px: 11 px text at 1.3, 3 px padding), and it sits that far above. */
const LABEL_HEIGHT = 22;

/**
 * What a picking mode puts over the page: a transparent shield of our own that takes every pointer
 * event (so the page sees no clicks and no :hover), a highlight box and a label. Replaces whatever
 * the overlay held; the controller empties it when the mode ends.
 */
export class PickLayer {
  readonly shield = h('div', { class: 'shield', tabindex: -1 });
  readonly hl = h('div', { class: 'hl' });
  private readonly labelEl = h('div', { class: 'label' });

  constructor(overlay: HTMLElement) {
    this.hl.style.display = 'none';
    this.labelEl.style.display = 'none';
    overlay.replaceChildren(this.shield, this.hl, this.labelEl);
    this.shield.focus({ preventScroll: true });
  }

  /**
   * Highlights a rectangle with a frame just outside it (so it never covers the element's own
   * pixels) and a label above it (below when there is no room).
   */
  highlight(r: CssRect, parts: LabelParts): void {
    this.hl.style.display = 'block';
    place(this.hl, {
      x: r.x - HL_GAP,
      y: r.y - HL_GAP,
      width: r.width + 2 * HL_GAP,
      height: r.height + 2 * HL_GAP,
    });
    this.label(r, parts);
  }

  /** The label's box when shown (the rest-frame preview must not have it over the element). */
  labelRect(): CssRect | null {
    if (this.labelEl.style.display === 'none') return null;
    const b = this.labelEl.getBoundingClientRect();
    return { x: b.x, y: b.y, width: b.width, height: b.height };
  }

  label(r: CssRect, parts: LabelParts): void {
    const label = this.labelEl;
    label.replaceChildren(...parts);
    label.style.display = 'block';
    // Clear of the element and its highlight frame, so a frame captured now shows the element clean.
    const room = HL_GAP + LABEL_HEIGHT;
    const top =
      r.y > room ? r.y - room : Math.min(window.innerHeight - LABEL_HEIGHT, r.y + r.height + HL_GAP);
    label.style.left = `${Math.max(0, Math.min(r.x, window.innerWidth - 260))}px`;
    label.style.top = `${top}px`;
  }

  hide(): void {
    this.hl.style.display = 'none';
    this.labelEl.style.display = 'none';
  }
}

/**
 * Element-by-element picking (element and colour modes): highlights the page element under the
 * pointer, at most once a frame, labelled by `describe`; a click picks the element under it.
 */
export function pointerPick(
  ctx: ModeContext,
  describe: (el: Element, r: CssRect) => LabelParts,
  pick: (el: Element, layer: PickLayer, at: { x: number; y: number }) => void,
): PickLayer {
  const layer = new PickLayer(ctx.overlay);
  const { shield } = layer;
  const signal = ctx.signal;
  let current: Element | null = null;
  let frame = 0;
  let last = { x: 0, y: 0 };
  const update = () => {
    frame = 0;
    const el = pageElementAt(last.x, last.y);
    current = el;
    if (!el) {
      layer.hide();
      return;
    }
    const r = domRect(el.getBoundingClientRect());
    layer.highlight(r, describe(el, r));
    ctx.avoid(r);
  };
  shield.addEventListener(
    'pointermove',
    trusted((e) => {
      last = { x: e.clientX, y: e.clientY };
      if (!frame) frame = requestAnimationFrame(update);
    }),
    { signal },
  );
  shield.addEventListener(
    'click',
    trusted((e) => {
      e.preventDefault();
      last = { x: e.clientX, y: e.clientY };
      update();
      if (current) pick(current, layer, last);
    }),
    { signal },
  );
  return layer;
}
