import type { PanelSpot } from '#shared/toolbar-messages.js';
import { domRect, h, iconButton } from './dom.js';
import { HOST_TAG } from './dom-inspect.js';
import { ICONS } from './icons.js';
import type { ToolbarMode } from './modes/index.js';
import { applySpot, spotOf } from './panel-place.js';
import { StatusLine } from './status-line.js';
import { CSS, HOST_STYLE } from './styles.js';
import { trusted } from './trusted.js';

export interface PanelHandlers {
  toggleMode(mode: ToolbarMode): void;
  /** The panel was collapsed (true) or expanded. */
  collapsed(collapsed: boolean): void;
  close(): void;
  /** The designer dragged the panel to a new spot (anchored to its nearest sides). */
  moved(spot: PanelSpot): void;
}

/** The toolbar's DOM: one host element, a closed shadow root, the panel and the overlay layers. */
export interface Panel {
  host: HTMLElement;
  shadow: ShadowRoot;
  /** Everything the toolbar shows; hidden (opacity 0) while a capture runs. */
  root: HTMLDivElement;
  panel: HTMLDivElement;
  /** Mode overlays (shield, highlight, handles) and locate flashes. */
  overlay: HTMLDivElement;
  /** The capture veil's mask, outside `root` so it stays visible while the UI is hidden. */
  mask: HTMLDivElement;
  status: StatusLine;
  /** Options of the mode that is on (views/deep-options.ts), under the mode buttons. */
  options: HTMLDivElement;
  badge: HTMLSpanElement;
  list: HTMLDivElement;
  colors: HTMLDivElement;
  palette: HTMLDivElement;
  save: HTMLDivElement;
  /** The verify loop's section (views/verify-view.ts). */
  verify: HTMLDivElement;
  modeButtons: Map<ToolbarMode, HTMLButtonElement>;
}

/** Builds the toolbar (not yet in the page): head with drag, collapse and close, mode buttons, sections. */
export function buildPanel(modes: readonly ToolbarMode[], on: PanelHandlers, signal: AbortSignal): Panel {
  const host = document.createElement(HOST_TAG);
  host.setAttribute('style', HOST_STYLE);
  // Top layer: above any z-index the page uses; `manual` so light-dismiss never closes it.
  host.setAttribute('popover', 'manual');
  const shadow = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = CSS;
  const status = new StatusLine();
  const badge = h('span', { class: 'badge', title: 'Items collected' }, '0');
  const list = h('div', { class: 'list' });
  const colors = h('div', { class: 'list' });
  const palette = h('div');
  const save = h('div', { class: 'save' });
  const verify = h('div', { class: 'verify' });

  const grip = h('span', { class: 'icon', 'aria-hidden': 'true' });
  grip.innerHTML = ICONS.grip;
  const collapse = iconButton(ICONS.collapse, 'Collapse (data is kept)');
  const close = iconButton(ICONS.close, 'Close toolbar');
  const head = h(
    'div',
    { class: 'head' },
    grip,
    h('span', { class: 'title' }, 'X-IPE Reference'),
    badge,
    collapse,
    close,
  );
  close.addEventListener(
    'click',
    trusted(() => on.close()),
    { signal },
  );

  const modeBar = h('div', { class: 'modes', role: 'toolbar', 'aria-label': 'Capture modes' });
  const modeButtons = new Map<ToolbarMode, HTMLButtonElement>();
  for (const mode of modes) {
    const b = h('button', {
      class: 'mode',
      type: 'button',
      'aria-pressed': 'false',
      title: `${mode.label} (${mode.key.toUpperCase()})`,
      'data-mode': mode.name,
    });
    b.innerHTML = mode.icon;
    b.append(h('span', {}, mode.label));
    b.addEventListener(
      'click',
      trusted(() => on.toggleMode(mode)),
      { signal },
    );
    modeBar.append(b);
    modeButtons.set(mode, b);
  }

  const options = h('div', { class: 'options' });
  // Only the lists scroll: the status line above them and Save below stay in view however many
  // items there are, and each list folds away under its heading.
  const body = h(
    'div',
    { class: 'body' },
    foldable('Elements & areas', list, signal),
    foldable('Colours', colors, signal),
    foldable('Page palette', palette, signal),
    foldable('Overlay & compare', verify, signal),
  );
  const foot = h('div', { class: 'section foot' }, h('h3', {}, 'Save to idea'), save);
  const panel = h(
    'div',
    { class: 'panel', role: 'dialog', 'aria-label': 'X-IPE UI/UX Reference toolbar' },
    head,
    modeBar,
    options,
    status.el,
    body,
    foot,
  );
  collapse.addEventListener(
    'click',
    trusted(() => {
      const collapsed = panel.classList.toggle('collapsed');
      collapse.innerHTML = collapsed ? ICONS.expand : ICONS.collapse;
      collapse.setAttribute('aria-label', collapsed ? 'Expand' : 'Collapse (data is kept)');
      on.collapsed(collapsed);
    }),
    { signal },
  );
  makeDraggable(head, panel, signal, (spot) => on.moved(spot));

  const root = h('div', { class: 'root' });
  const overlay = h('div', { class: 'overlays' });
  root.append(overlay, panel);
  const mask = h('div', { class: 'mask', 'aria-hidden': 'true' });
  shadow.append(style, mask, root);
  return {
    host,
    shadow,
    root,
    panel,
    overlay,
    mask,
    status,
    options,
    badge,
    list,
    colors,
    palette,
    save,
    verify,
    modeButtons,
  };
}

/** Dragging the head moves the panel, all of it kept inside the viewport; a drop reports its spot. */
function makeDraggable(
  handle: HTMLElement,
  panel: HTMLElement,
  signal: AbortSignal,
  dropped: (spot: PanelSpot) => void,
): void {
  handle.addEventListener(
    'pointerdown',
    trusted((e) => {
      if ((e.target as Element).closest('button')) return;
      const start = panel.getBoundingClientRect();
      const dx = e.clientX - start.left;
      const dy = e.clientY - start.top;
      handle.setPointerCapture(e.pointerId);
      const move = trusted((ev: PointerEvent) => {
        const { width, height } = panel.getBoundingClientRect();
        const x = Math.min(Math.max(0, ev.clientX - dx), window.innerWidth - width);
        const y = Math.min(Math.max(0, ev.clientY - dy), window.innerHeight - height);
        Object.assign(panel.style, { left: `${x}px`, top: `${y}px`, right: 'auto', bottom: 'auto' });
      });
      const up = trusted(() => {
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        const viewport = { width: window.innerWidth, height: window.innerHeight };
        const spot = spotOf(domRect(panel.getBoundingClientRect()), viewport);
        applySpot(panel, spot);
        dropped(spot);
      });
      handle.addEventListener('pointermove', move, { signal });
      handle.addEventListener('pointerup', up, { signal });
    }),
    { signal },
  );
}

/** A list under a heading that folds it away (and says so to screen readers). */
function foldable(title: string, content: HTMLElement, signal: AbortSignal): HTMLElement {
  const toggle = h('button', { class: 'fold', type: 'button', 'aria-expanded': 'true' }, title);
  const section = h('div', { class: 'section' }, h('h3', {}, toggle), content);
  toggle.addEventListener(
    'click',
    () => {
      const folded = section.classList.toggle('folded');
      toggle.setAttribute('aria-expanded', String(!folded));
    },
    { signal },
  );
  return section;
}
