import type { CssRect, PanelSpot } from '#shared/toolbar-messages.js';
import { intersect } from '../../geometry/crop-math.js';
import { CaptureVeil, panelPaintsOver } from './capture-veil.js';
import { CollectionSync } from './collection-sync.js';
import { domRect } from './dom.js';
import { selectorFor } from './dom-inspect.js';
import { MODES, type ModeContext, type ModeSession, type ToolbarMode } from './modes/index.js';
import { buildPanel, type Panel } from './panel.js';
import { applySpot, freeCorner, pageControls, rectAt } from './panel-place.js';
import { send } from './runtime.js';
import { trusted } from './trusted.js';
import { ReferenceOverlay } from './verify/reference-overlay.js';
import { DeepOptions } from './views/deep-options.js';
import { PaletteView } from './views/palette-view.js';
import { VerifyView } from './views/verify-view.js';

/** The mode that is on, and what ends it. */
interface Active {
  mode: ToolbarMode;
  abort: AbortController;
  session: ModeSession | null;
}

/**
 * The designer toolbar: one instance per page, all DOM inside a closed shadow root under one host
 * element, every listener bound to one AbortController so `destroy()` leaves no trace. State that
 * matters (the collection) lives in the service worker; CollectionSync renders it. This controller
 * wires the panel, keeps at most one mode on and routes the keyboard.
 */
export class ToolbarApp {
  private readonly abort = new AbortController();
  private readonly ui: Panel;
  private readonly veil: CaptureVeil;
  private readonly collection: CollectionSync;
  private readonly palette: PaletteView;
  private readonly deep: DeepOptions;
  private readonly selectors = new WeakMap<Element, string>();
  private active: Active | null = null;
  private spot: PanelSpot;
  private destroyed = false;
  onDestroy: (() => void) | null = null;

  constructor() {
    const signal = this.abort.signal;
    this.ui = buildPanel(
      MODES,
      {
        toggleMode: (mode) => void this.toggle(mode),
        collapsed: (collapsed) => {
          if (collapsed) this.stop();
        },
        close: () => this.destroy(),
        moved: (spot) => {
          this.spot = spot;
          void send({ type: 'xipe-toolbar:panel_spot', spot }).catch(() => undefined);
        },
      },
      signal,
    );
    const ui = this.ui;
    this.veil = new CaptureVeil(ui.root, ui.mask, ui.panel);
    this.collection = new CollectionSync({ ...ui, veil: this.veil }, signal);
    this.palette = new PaletteView(ui.palette, (draft) => void this.collection.addColor(draft), signal);
    this.deep = new DeepOptions(ui.options, signal);
    const overlay = new ReferenceOverlay();
    this.veil.alsoHide = overlay;
    new VerifyView(
      ui.verify,
      { layer: ui.overlay, shadow: ui.shadow, toolbarHost: ui.host, status: ui.status, overlay },
      signal,
    );
    ui.status.set('Pick elements (E), areas (A), colours (C) or the full page (P).');
    document.documentElement.append(ui.host);
    this.raise();
    // Where the designer last put it, else the corner that hides the least of the page's links.
    this.spot = freeCorner(ui.panel.getBoundingClientRect(), viewportSize(), pageControls());
    applySpot(ui.panel, this.spot);
    void send({ type: 'xipe-toolbar:panel_spot' })
      .then((spot) => {
        if (!spot || this.destroyed) return;
        this.spot = spot;
        applySpot(ui.panel, spot);
      })
      .catch(() => undefined);
    window.addEventListener('resize', () => applySpot(ui.panel, this.spot), { signal });

    // Keyboard: one listener for the whole window (the shadow root's keys reach it retargeted to
    // the host): mode shortcuts wherever the focus is but a text field, Esc/Enter while a mode runs.
    window.addEventListener(
      'keydown',
      trusted((e) => this.onKey(e)),
      { capture: true, signal },
    );
    // The designer's own use of the toolbar on this page (pointer or keys on the panel, a mode's
    // shield) is what lets the leave-page prompt arm once there is something unsaved.
    for (const type of ['pointerdown', 'keydown'] as const)
      ui.host.addEventListener(
        type,
        trusted(() => this.collection.leaveGuard.touched()),
        { capture: true, signal },
      );
    // A page popover or dialog opened after us covers us (the last shown is on top): go back on
    // top. Only for the page's own openings: raising fires `toggle` on our host too, and answering
    // those would loop forever (a storm of thousands of events a second on an idle page).
    document.addEventListener(
      'toggle',
      (e) => {
        if (e.target !== ui.host && (e as ToggleEvent).newState === 'open') this.raise();
      },
      { capture: true, signal },
    );
    void this.collection.refresh();
  }

  // ── lifecycle ──────────────────────────────────────────────────────────────────────────────

  /** Re-enters the top layer (last shown is on top). */
  private raise(): void {
    const host = this.ui.host;
    try {
      if (host.matches(':popover-open')) host.hidePopover();
      host.showPopover();
    } catch {
      // Popover unsupported or host detached: the max z-index inline style still applies.
    }
  }

  open(): void {
    this.ui.panel.classList.remove('collapsed');
    this.raise();
  }

  /**
   * The worker says a capture of ours waits its turn behind an agent's (null: it waits no more):
   * shown with the panel, so the toolbar does not look frozen meanwhile.
   */
  notice(text: string | null): void {
    if (text === null || this.destroyed) return;
    this.veil.lift();
    this.ui.status.set(text);
  }

  isOpen(): boolean {
    return !this.destroyed;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.stop();
    this.abort.abort();
    this.ui.host.remove();
    this.onDestroy?.();
  }

  // ── modes ──────────────────────────────────────────────────────────────────────────────────

  private async toggle(mode: ToolbarMode): Promise<void> {
    if (this.active?.mode === mode) {
      this.stop();
      return;
    }
    this.stop();
    if (mode.kind === 'run' && this.collection.busy) return;
    const active: Active = { mode, abort: new AbortController(), session: null };
    this.active = active;
    this.showPressed(mode);
    this.deep.show(mode);
    this.ui.status.set(mode.hint);
    try {
      active.session = (await mode.enter(this.contextFor(active))) ?? null;
    } catch (err) {
      this.ui.status.fail(err);
      this.end(active);
    }
  }

  /** Turns the mode that is on off, as Esc does. */
  private stop(): void {
    const active = this.active;
    if (!active) return;
    this.end(active);
    if (active.mode.kind === 'tool') this.ui.status.set('Ready.');
  }

  /** Ends one activation (if it is still the one on): its listeners and overlays go. */
  private end(active: Active): void {
    if (this.active !== active) return;
    this.active = null;
    active.abort.abort();
    this.ui.overlay.replaceChildren();
    this.showPressed(null);
    this.deep.show(null);
  }

  private showPressed(mode: ToolbarMode | null): void {
    for (const [m, b] of this.ui.modeButtons) b.setAttribute('aria-pressed', String(m === mode));
  }

  private panelOver(rect: CssRect): boolean {
    return panelPaintsOver(this.ui.panel, rect);
  }

  /**
   * Moves the panel to the corner where it covers the least of what the designer points at or
   * selects, when it paints over it now. The move is for the moment: the designer's own spot is
   * kept for the next page. A target as large as half the viewport is left alone (no corner would
   * clear it, and the panel would hop at every section the pointer crosses).
   */
  private avoid(rect: CssRect): void {
    const panel = this.ui.panel;
    if (!panelPaintsOver(panel, rect)) return;
    const viewport = viewportSize();
    if (rect.width * rect.height > (viewport.width * viewport.height) / 2) return;
    const box = panel.getBoundingClientRect();
    const size = { width: box.width, height: box.height };
    const here = intersect(domRect(box), rect);
    const spot = freeCorner(size, viewport, [rect]);
    const there = intersect(rectAt(spot, size, viewport), rect);
    const cover = (r: CssRect | null) => (r ? r.width * r.height : 0);
    if (cover(there) < cover(here)) applySpot(panel, spot);
  }

  private selectorOf(el: Element): string {
    let s = this.selectors.get(el);
    if (!s) {
      s = selectorFor(el);
      this.selectors.set(el, s);
    }
    return s;
  }

  private contextFor(active: Active): ModeContext {
    const { ui, collection } = this;
    // A run is not cancelled by Esc or the buttons (see ToolbarMode.kind), only by closing.
    const signal =
      active.mode.kind === 'run'
        ? this.abort.signal
        : AbortSignal.any([active.abort.signal, this.abort.signal]);
    return {
      signal,
      overlay: ui.overlay,
      veil: this.veil,
      get busy() {
        return collection.busy;
      },
      panelRect: () => domRect(ui.panel.getBoundingClientRect()),
      avoid: (rect) => this.avoid(rect),
      setStatus: (text, kind) => ui.status.set(text, kind),
      progress: (text, fraction) => ui.status.progress(text, fraction),
      fail: (err) => ui.status.fail(err),
      selectorOf: (el) => this.selectorOf(el),
      suggestedRole: (hex) => this.palette.suggestedRole(hex),
      captureElement: (el, kind, rect) =>
        collection.jobs.captureElement(el, kind, rect, this.selectorOf(el), () =>
          this.deep.take(active.mode),
        ),
      addColor: (draft) => collection.addColor(draft),
      sample: (rect) => collection.jobs.sample(rect),
      restFrame: async (rect) => (this.panelOver(rect) ? null : collection.jobs.restFrame()),
      preview: (frame, el, rect) => void collection.jobs.preview(frame, el, rect, this.selectorOf(el)),
      cancelPreview: () => collection.jobs.cancelPreview(),
      exclusive: (job) => collection.jobs.exclusive(job),
      added: (item) => collection.added(item),
      stop: () => {
        if (this.active === active) this.stop();
      },
      finish: () => this.end(active),
    };
  }

  // ── keyboard ───────────────────────────────────────────────────────────────────────────────

  /**
   * Where a key went. The toolbar's shadow root is closed, so outside it (the window's listener)
   * the event is retargeted to the host: then the root's focused element is the one.
   */
  private keyTarget(e: KeyboardEvent): EventTarget | null {
    const target = e.composedPath()[0] ?? null;
    return target === this.ui.host ? this.ui.shadow.activeElement : target;
  }

  private onKey(e: KeyboardEvent): void {
    const active = this.active;
    const target = this.keyTarget(e);
    if (active && active.mode.kind !== 'run') {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopImmediatePropagation();
        this.stop();
        return;
      }
      // Enter in a note ends the note, even while the tool that captured its item is still on;
      // Enter in the instruction field is the capture the instruction was typed for.
      if (
        e.key === 'Enter' &&
        active.session?.confirm &&
        (!takesText(target) || this.deep.isInstruction(target))
      ) {
        e.preventDefault();
        e.stopImmediatePropagation();
        active.session.confirm();
        return;
      }
    }
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'z' && !takesText(target)) {
      if (this.collection.undo()) {
        e.preventDefault();
        e.stopImmediatePropagation();
      }
      return;
    }
    this.onShortcut(e, target);
  }

  /**
   * E/A/C/P while the panel is open and the focus is not in a text field (the toolbar's or the
   * page's): right after opening, after Esc, after a click on the panel's text or on the page.
   */
  private onShortcut(e: KeyboardEvent, target: EventTarget | null): void {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    if (takesText(target) || target instanceof HTMLSelectElement) return;
    if (target instanceof HTMLElement && target.isContentEditable) return;
    if (this.ui.panel.classList.contains('collapsed')) return;
    const mode = MODES.find((m) => m.key === e.key.toLowerCase());
    if (!mode) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    this.collection.leaveGuard.touched();
    void this.toggle(mode);
  }
}

/** Inputs where Enter is not the text's (a checkbox just clicked keeps the focus, for one). */
const NOT_TEXT = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'range',
  'color',
  'file',
  'image',
]);

/** A field Enter belongs to (a note, a search box), in the toolbar or the page. */
function takesText(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLInputElement && !NOT_TEXT.has(target.type))
  );
}

const viewportSize = () => ({ width: window.innerWidth, height: window.innerHeight });
