import type {
  CollectedColor,
  CollectedElement,
  Collection,
  ColorDraft,
  ColorRole,
  CssRect,
  ElementDraft,
  IdeasListing,
} from '../../../../shared/src/toolbar-messages.js';
import { type Handle, intersect, rectFromPoints, resizeRect } from '../../geometry/crop-math.js';
import { CaptureVeil } from './capture-veil.js';
import { colorStrings, contrastRatio, isLargeText, parseHex, type Rgba, toHex, wcagRating } from './color.js';
import {
  designerStyles,
  effectiveBackground,
  elementContaining,
  HOST_TAG,
  pageElementAt,
  pageTypography,
  scanPalette,
  selectorFor,
  semanticSection,
  textSample,
  toRgba,
  viewportInfo,
} from './dom-inspect.js';
import { captureFullPage } from './full-page.js';
import { ICONS } from './icons.js';
import { COLOR_ROLES, type PaletteEntry, suggestRoles } from './palette.js';
import { send, ToolbarFailure } from './runtime.js';
import { CSS, HOST_STYLE } from './styles.js';

type Mode = 'idle' | 'element' | 'area' | 'color' | 'page';

type Attrs = Record<string, string | number | boolean | undefined>;

/** Minimal element builder: text only ever goes in through textContent. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

function iconButton(icon: string, label: string, cls = 'icon'): HTMLButtonElement {
  const b = h('button', { class: cls, type: 'button', title: label, 'aria-label': label });
  b.innerHTML = icon; // static SVG from icons.ts
  return b;
}

const round = (v: number): number => Math.round(v * 100) / 100;

function toPageBox(r: CssRect): CssRect {
  return {
    x: round(r.x + window.scrollX),
    y: round(r.y + window.scrollY),
    width: round(r.width),
    height: round(r.height),
  };
}

function domRect(r: DOMRect): CssRect {
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}

function place(el: HTMLElement, r: CssRect): void {
  el.style.left = `${r.x}px`;
  el.style.top = `${r.y}px`;
  el.style.width = `${r.width}px`;
  el.style.height = `${r.height}px`;
}

const MODE_LABELS: Record<Exclude<Mode, 'idle'>, { label: string; key: string; hint: string }> = {
  element: { label: 'Element', key: 'e', hint: 'Click an element to capture it. Esc to stop.' },
  area: {
    label: 'Area',
    key: 'a',
    hint: 'Drag a rectangle, or click to snap to a section. Enter captures, Esc cancels.',
  },
  color: { label: 'Colour', key: 'c', hint: 'Click anywhere to pick the colour there. Esc to stop.' },
  page: { label: 'Full page', key: 'p', hint: 'Capturing the full page…' },
};

/**
 * The designer toolbar: one instance per page, all DOM inside a closed shadow root under one host
 * element, every listener bound to one AbortController so `destroy()` leaves no trace. State that
 * matters (the collection) lives in the service worker; this class only renders it.
 */
export class ToolbarApp {
  private readonly abort = new AbortController();
  private readonly host: HTMLElement;
  private readonly shadow: ShadowRoot;
  private readonly root: HTMLDivElement;
  private readonly panel: HTMLDivElement;
  private readonly status: HTMLDivElement;
  private readonly listEl: HTMLDivElement;
  private readonly colorsEl: HTMLDivElement;
  private readonly paletteEl: HTMLDivElement;
  private readonly saveEl: HTMLDivElement;
  private readonly badge: HTMLSpanElement;
  private readonly overlay: HTMLDivElement;
  private readonly veil: CaptureVeil;
  private readonly modeButtons = new Map<Mode, HTMLButtonElement>();
  private mode: Mode = 'idle';
  private modeAbort: AbortController | null = null;
  private collection: Collection | null = null;
  private ideas: IdeasListing | null = null;
  private palette: PaletteEntry[] | null = null;
  private readonly thumbs = new Map<string, string>();
  private busy = false;
  private destroyed = false;
  private readonly selectorCache = new WeakMap<Element, string>();
  onDestroy: (() => void) | null = null;

  constructor() {
    const signal = this.abort.signal;
    this.host = document.createElement(HOST_TAG);
    this.host.setAttribute('style', HOST_STYLE);
    // Top layer: above any z-index the page uses; `manual` so light-dismiss never closes it.
    this.host.setAttribute('popover', 'manual');
    this.shadow = this.host.attachShadow({ mode: 'closed' });
    const style = document.createElement('style');
    style.textContent = CSS;
    this.root = h('div', { class: 'root' });
    this.overlay = h('div', { class: 'overlays' });
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.listEl = h('div', { class: 'list' });
    this.colorsEl = h('div', { class: 'list' });
    this.paletteEl = h('div');
    this.saveEl = h('div', { class: 'save' });
    this.badge = h('span', { class: 'badge', title: 'Items collected' }, '0');
    this.panel = this.buildPanel();
    this.root.append(this.overlay, this.panel);
    const mask = h('div', { class: 'mask', 'aria-hidden': 'true' });
    this.veil = new CaptureVeil(this.root, mask);
    this.shadow.append(style, mask, this.root);
    document.documentElement.append(this.host);
    this.raise();

    // Keyboard: shortcuts while focus is in the toolbar; Esc/Enter anywhere while a mode runs.
    this.shadow.addEventListener('keydown', (e) => this.onPanelKey(e as KeyboardEvent), { signal });
    window.addEventListener('keydown', (e) => this.onGlobalKey(e), { capture: true, signal });
    // Another top-layer element (a page dialog) may cover us: move back on top when focus returns.
    document.addEventListener('toggle', () => this.raise(), { capture: true, signal });
    void this.refresh();
  }

  // ── lifecycle ──────────────────────────────────────────────────────────────────────────────

  /** Re-enters the top layer (last shown is on top). */
  private raise(): void {
    try {
      if (this.host.matches(':popover-open')) this.host.hidePopover();
      this.host.showPopover();
    } catch {
      // Popover unsupported or host detached: the max z-index inline style still applies.
    }
  }

  open(): void {
    this.panel.classList.remove('collapsed');
    this.raise();
  }

  isOpen(): boolean {
    return !this.destroyed;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.stopMode();
    this.abort.abort();
    this.host.remove();
    this.onDestroy?.();
  }

  // ── panel ──────────────────────────────────────────────────────────────────────────────────

  private buildPanel(): HTMLDivElement {
    const signal = this.abort.signal;
    const grip = h('span', { class: 'icon', 'aria-hidden': 'true' });
    grip.innerHTML = ICONS.grip;
    const collapse = iconButton(ICONS.collapse, 'Collapse (data is kept)');
    const close = iconButton(ICONS.close, 'Close toolbar');
    const head = h(
      'div',
      { class: 'head' },
      grip,
      h('span', { class: 'title' }, 'X-IPE Reference'),
      this.badge,
      collapse,
      close,
    );
    collapse.addEventListener(
      'click',
      () => {
        const collapsed = this.panel.classList.toggle('collapsed');
        collapse.innerHTML = collapsed ? ICONS.expand : ICONS.collapse;
        collapse.setAttribute('aria-label', collapsed ? 'Expand' : 'Collapse (data is kept)');
        if (collapsed) this.stopMode();
      },
      { signal },
    );
    close.addEventListener('click', () => this.destroy(), { signal });

    const modes = h('div', { class: 'modes', role: 'toolbar', 'aria-label': 'Capture modes' });
    for (const mode of ['element', 'area', 'color', 'page'] as const) {
      const meta = MODE_LABELS[mode];
      const b = h('button', {
        class: 'mode',
        type: 'button',
        'aria-pressed': 'false',
        title: `${meta.label} (${meta.key.toUpperCase()})`,
        'data-mode': mode,
      });
      b.innerHTML = ICONS[mode];
      b.append(h('span', {}, meta.label));
      b.addEventListener('click', () => void this.toggleMode(mode), { signal });
      modes.append(b);
      this.modeButtons.set(mode, b);
    }

    const scan = h('button', { class: 'btn secondary', type: 'button' }, 'Scan page colours');
    scan.addEventListener('click', () => this.showPalette(), { signal });
    this.paletteEl.append(scan);

    const body = h(
      'div',
      { class: 'body' },
      this.status,
      h('div', { class: 'section' }, h('h3', {}, 'Elements & areas'), this.listEl),
      h('div', { class: 'section' }, h('h3', {}, 'Colours'), this.colorsEl),
      h('div', { class: 'section' }, h('h3', {}, 'Page palette'), this.paletteEl),
      h('div', { class: 'section' }, h('h3', {}, 'Save to idea'), this.saveEl),
    );
    const panel = h(
      'div',
      { class: 'panel', role: 'dialog', 'aria-label': 'X-IPE UI/UX Reference toolbar' },
      head,
      modes,
      body,
    );
    this.makeDraggable(head, panel);
    this.setStatus('Pick elements (E), areas (A), colours (C) or the full page (P).');
    return panel;
  }

  private makeDraggable(handle: HTMLElement, panel: HTMLElement): void {
    const signal = this.abort.signal;
    handle.addEventListener(
      'pointerdown',
      (e) => {
        if ((e.target as Element).closest('button')) return;
        const start = panel.getBoundingClientRect();
        const dx = e.clientX - start.left;
        const dy = e.clientY - start.top;
        handle.setPointerCapture(e.pointerId);
        const move = (ev: PointerEvent) => {
          const x = Math.min(Math.max(0, ev.clientX - dx), window.innerWidth - 60);
          const y = Math.min(Math.max(0, ev.clientY - dy), window.innerHeight - 40);
          panel.style.left = `${x}px`;
          panel.style.top = `${y}px`;
          panel.style.right = 'auto';
        };
        const up = () => {
          handle.removeEventListener('pointermove', move);
          handle.removeEventListener('pointerup', up);
        };
        handle.addEventListener('pointermove', move, { signal });
        handle.addEventListener('pointerup', up, { signal });
      },
      { signal },
    );
  }

  private setStatus(text: string, kind: 'info' | 'error' | 'ok' = 'info'): void {
    this.status.className = `status${kind === 'info' ? '' : ` ${kind}`}`;
    this.status.textContent = text;
  }

  private fail(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.setStatus(message, 'error');
  }

  // ── state ──────────────────────────────────────────────────────────────────────────────────

  private async refresh(): Promise<void> {
    try {
      const state = await send({
        type: 'xipe-toolbar:get_state',
        page_url: location.href,
        typography: pageTypography(),
      });
      this.collection = state.collection;
      this.render();
      if (state.host_connected) void this.loadIdeas();
      else {
        this.renderSave(
          'The X-IPE host is not connected: captures are kept, saving needs `x-ipe-uiux install`.',
        );
        // The worker reconnects by itself; pick the idea list up as soon as the host is back.
        void this.loadIdeas();
      }
    } catch (err) {
      this.fail(err);
    }
  }

  /**
   * Loads the workspaces and idea folders from the host. A host that is (re)starting answers with
   * an error for a moment, so keep asking with back-off (1 s doubling to 8 s, about a minute in all)
   * until it answers or the toolbar closes; the ↻ button asks again at once.
   */
  private async loadIdeas(): Promise<void> {
    const signal = this.abort.signal;
    for (let attempt = 0, delay = 1000; attempt < 10 && !signal.aborted; attempt += 1) {
      try {
        this.ideas = await send({ type: 'xipe-toolbar:list_ideas' });
        this.renderSave();
        return;
      } catch (err) {
        if (this.ideas === null) this.renderSave(err instanceof Error ? err.message : String(err));
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }

  private render(): void {
    const c = this.collection;
    if (!c) return;
    this.badge.textContent = String(c.elements.length + c.colors.length);
    this.renderElements(c.elements);
    this.renderColors(c.colors);
    this.renderSave();
  }

  private renderElements(items: CollectedElement[]): void {
    const signal = this.abort.signal;
    this.listEl.replaceChildren();
    if (items.length === 0) {
      this.listEl.append(h('div', { class: 'empty' }, 'Nothing yet — pick an element or draw an area.'));
      return;
    }
    for (const item of items) {
      const thumb = h('div', { class: 'thumb' });
      void this.thumbFor(item, thumb);
      const note = h('textarea', {
        rows: 1,
        placeholder: 'Add a note…',
        'aria-label': `Note for ${item.selector}`,
      });
      note.value = item.comment ?? '';
      note.addEventListener(
        'change',
        () => void this.update(item.key, { comment: note.value.trim() === '' ? null : note.value }),
        { signal },
      );
      note.addEventListener(
        'keydown',
        (e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            note.blur();
          }
        },
        { signal },
      );
      const locate = iconButton(ICONS.locate, 'Locate on page');
      locate.addEventListener('click', () => this.locate(item), { signal });
      const remove = iconButton(ICONS.remove, 'Remove');
      remove.addEventListener('click', () => void this.remove(item.key), { signal });
      const size = `${Math.round(item.bounding_box.width)}×${Math.round(item.bounding_box.height)}`;
      const kind = item.kind === 'full_page' ? 'full page' : item.kind;
      const capped = item.capped_at ? ` · cut at ${item.capped_at}px` : '';
      this.listEl.append(
        h(
          'div',
          { class: 'item', 'data-key': item.key },
          thumb,
          h(
            'div',
            { class: 'meta' },
            h('div', { class: 'sel', title: item.selector }, item.selector),
            h('div', { class: 'sub' }, `${kind} · <${item.tag}> · ${size}${capped}`),
            note,
          ),
          h('div', { class: 'actions' }, locate, remove),
        ),
      );
    }
  }

  private async thumbFor(item: CollectedElement, el: HTMLElement): Promise<void> {
    if (!item.crop) return;
    let url = this.thumbs.get(item.key);
    if (!url) {
      try {
        const r = await send({ type: 'xipe-toolbar:get_crop', key: item.key });
        if (!r.data_url) return;
        url = r.data_url;
        this.thumbs.set(item.key, url);
      } catch {
        return;
      }
    }
    el.style.backgroundImage = `url("${url}")`;
  }

  private renderColors(colors: CollectedColor[]): void {
    const signal = this.abort.signal;
    this.colorsEl.replaceChildren();
    if (colors.length === 0) {
      this.colorsEl.append(h('div', { class: 'empty' }, 'No colours yet — use Colour (C) or the palette.'));
      return;
    }
    for (const c of colors) {
      const role = h('select', { class: 'role', 'aria-label': `Role of ${c.hex}` });
      for (const r of COLOR_ROLES) role.append(h('option', { value: r, selected: r === c.role }, r));
      role.addEventListener('change', () => void this.update(c.key, { role: role.value as ColorRole }), {
        signal,
      });
      const remove = iconButton(ICONS.remove, 'Remove');
      remove.addEventListener('click', () => void this.remove(c.key), { signal });
      const dot = h('span', { class: 'dot' });
      dot.style.background = c.hex;
      const sub = c.contrast
        ? `${c.rgb} · ${c.contrast.ratio.toFixed(2)}:1 ${c.contrast.rating} vs ${c.contrast.against}`
        : c.rgb;
      this.colorsEl.append(
        h(
          'div',
          { class: 'item', 'data-key': c.key },
          h('div', { class: 'chip' }, dot),
          h(
            'div',
            { class: 'meta' },
            h('div', { class: 'sel' }, `${c.hex}  hsl(${c.hsl})`),
            h('div', { class: 'sub' }, sub),
            role,
          ),
          h('div', { class: 'actions' }, remove),
        ),
      );
    }
    // WCAG contrast for every text/background pair the designer assigned.
    const texts = colors.filter((c) => c.role === 'text');
    const bgs = colors.filter((c) => c.role === 'background');
    if (texts.length > 0 && bgs.length > 0) {
      const box = h('div', { class: 'contrast' });
      for (const t of texts)
        for (const b of bgs) {
          const ft = parseHex(t.hex);
          const fb = parseHex(b.hex);
          if (!ft || !fb) continue;
          const ratio = contrastRatio(ft, fb);
          box.append(h('div', {}, `${t.hex} on ${b.hex}: ${ratio.toFixed(2)}:1 — ${wcagRating(ratio)}`));
        }
      this.colorsEl.append(box);
    }
  }

  private renderSave(problem?: string): void {
    const signal = this.abort.signal;
    this.saveEl.replaceChildren();
    const c = this.collection;
    const count = c ? c.elements.length + c.colors.length : 0;
    if (problem) this.saveEl.append(h('div', { class: 'empty' }, problem));
    const workspaces = this.ideas?.workspaces ?? [];
    const ws = h('select', { 'aria-label': 'Workspace' });
    const idea = h('select', { 'aria-label': 'Idea folder' });
    const last = c?.last_target;
    for (const w of workspaces)
      ws.append(h('option', { value: w.path, selected: w.path === last?.workspace }, w.path));
    const fillIdeas = () => {
      idea.replaceChildren();
      const w = workspaces.find((x) => x.path === ws.value) ?? workspaces[0];
      for (const i of w?.ideas ?? []) {
        const label = i.session_count > 0 ? `${i.name} (${i.session_count} sessions)` : i.name;
        idea.append(h('option', { value: i.name, selected: i.name === last?.idea_folder }, label));
      }
      if ((w?.ideas.length ?? 0) === 0)
        idea.append(h('option', { value: '', disabled: true, selected: true }, 'No idea folders'));
    };
    fillIdeas();
    ws.addEventListener('change', fillIdeas, { signal });
    const save = h(
      'button',
      { class: 'btn', type: 'button', disabled: count === 0 || workspaces.length === 0 },
      `Save ${count} item${count === 1 ? '' : 's'}`,
    );
    save.addEventListener('click', () => void this.save(ws.value, idea.value), { signal });
    const reload = h('button', { class: 'btn secondary', type: 'button', title: 'Reload idea folders' }, '↻');
    reload.style.flex = '0 0 36px';
    reload.addEventListener('click', () => void this.loadIdeas(), { signal });
    if (workspaces.length > 1) this.saveEl.append(ws);
    this.saveEl.append(idea, h('div', { class: 'row' }, save, reload));
  }

  // ── actions ────────────────────────────────────────────────────────────────────────────────

  private async update(key: string, change: { comment?: string | null; role?: ColorRole }): Promise<void> {
    try {
      this.collection = await send({ type: 'xipe-toolbar:update_item', key, ...change });
      if (change.role) this.renderColors(this.collection.colors);
      this.badge.textContent = String(this.collection.elements.length + this.collection.colors.length);
      if (change.comment !== undefined) this.setStatus('Note saved.', 'ok');
    } catch (err) {
      this.fail(err);
    }
  }

  private async remove(key: string): Promise<void> {
    try {
      this.collection = await send({ type: 'xipe-toolbar:remove_item', key });
      this.thumbs.delete(key);
      this.render();
    } catch (err) {
      this.fail(err);
    }
  }

  private async save(workspace: string, ideaFolder: string): Promise<void> {
    if (!ideaFolder) {
      this.setStatus('Choose an idea folder first.', 'error');
      return;
    }
    this.setStatus(`Saving to ${ideaFolder}…`);
    try {
      const r = await send({
        type: 'xipe-toolbar:save',
        idea_folder: ideaFolder,
        ...(workspace ? { workspace } : {}),
      });
      this.thumbs.clear();
      this.setStatus(`Saved session ${r.session_number} → ${r.session_path}`, 'ok');
      const state = await send({ type: 'xipe-toolbar:get_state', page_url: location.href });
      this.collection = state.collection;
      this.render();
      this.setStatus(`Saved session ${r.session_number} → ${r.session_path}`, 'ok');
      void this.loadIdeas();
    } catch (err) {
      const hint =
        err instanceof ToolbarFailure && err.code === 'IDEA_NOT_FOUND' ? ' (reload the idea list)' : '';
      this.setStatus(
        `Not saved: ${err instanceof Error ? err.message : String(err)}${hint} — your captures are kept.`,
        'error',
      );
    }
  }

  private locate(item: CollectedElement): void {
    let target: Element | null = null;
    if (item.kind === 'element') {
      try {
        target = document.querySelector(item.selector);
      } catch {
        target = null;
      }
    }
    if (target) target.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    else window.scrollTo({ top: Math.max(0, item.bounding_box.y - 40), behavior: 'instant' });
    requestAnimationFrame(() => {
      const r = target
        ? domRect(target.getBoundingClientRect())
        : {
            ...item.bounding_box,
            x: item.bounding_box.x - window.scrollX,
            y: item.bounding_box.y - window.scrollY,
          };
      const flash = h('div', { class: 'flash' });
      place(flash, r);
      this.overlay.append(flash);
      setTimeout(() => flash.remove(), 950);
    });
  }

  /**
   * Hides every pixel of the toolbar (captures must not contain it) and masks the page outside
   * `crop` while `fn` runs.
   */
  private async withHidden<T>(crop: CssRect, fn: () => Promise<T>): Promise<T> {
    try {
      await this.veil.lower(crop);
      return await fn();
    } finally {
      this.veil.lift();
    }
  }

  /** The part of an element's box inside the viewport (what a crop of it can show). */
  private static visiblePart(rect: CssRect): CssRect | null {
    return intersect(rect, { x: 0, y: 0, width: window.innerWidth, height: window.innerHeight });
  }

  private selectorOf(el: Element): string {
    let s = this.selectorCache.get(el);
    if (!s) {
      s = selectorFor(el);
      this.selectorCache.set(el, s);
    }
    return s;
  }

  private async captureElement(
    el: Element,
    kind: 'element' | 'area',
    rect: CssRect,
    comment?: string,
  ): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    const started = performance.now();
    try {
      const visible = ToolbarApp.visiblePart(rect);
      if (!visible) throw new Error('That is outside the visible page; scroll to it first.');
      const draft: ElementDraft = {
        kind,
        selector: this.selectorOf(el),
        tag: el.localName,
        bounding_box: toPageBox(rect),
        styles: designerStyles(el),
        page_url: location.href,
        ...(textSample(el) ? { text: textSample(el) } : {}),
        ...(comment ? { comment } : {}),
      };
      const item = await this.withHidden(visible, () =>
        send({ type: 'xipe-toolbar:capture_element', draft, crop: visible, viewport: viewportInfo() }),
      );
      if (this.collection)
        this.collection = { ...this.collection, elements: [...this.collection.elements, item] };
      this.render();
      const ms = Math.round(performance.now() - started);
      const size = item.crop ? ` (${item.crop.width}×${item.crop.height} px)` : '';
      this.setStatus(`Captured ${item.selector}${size} in ${ms} ms.`, 'ok');
    } catch (err) {
      this.fail(err);
    } finally {
      this.busy = false;
    }
  }

  private async addColor(draft: ColorDraft): Promise<void> {
    try {
      const item = await send({ type: 'xipe-toolbar:add_color', draft });
      if (this.collection)
        this.collection = { ...this.collection, colors: [...this.collection.colors, item] };
      this.render();
      this.setStatus(`Added ${item.hex} as ${item.role}.`, 'ok');
    } catch (err) {
      this.fail(err);
    }
  }

  private colorDraft(
    c: Rgba,
    role: ColorRole,
    selector?: string,
    context?: string,
    against?: Rgba,
    large = false,
  ): ColorDraft {
    const s = colorStrings(c);
    const draft: ColorDraft = { ...s, role, page_url: location.href };
    if (selector) draft.source_selector = selector;
    if (context) draft.context = context;
    if (against) {
      const ratio = contrastRatio(against, c);
      draft.contrast = {
        against: toHex(against),
        ratio: Math.round(ratio * 100) / 100,
        rating: wcagRating(ratio, large),
      };
    }
    return draft;
  }

  private suggestedRole(hex: string): ColorRole {
    if (!this.palette) this.palette = scanPalette();
    return suggestRoles(this.palette).get(hex) ?? 'custom';
  }

  private showPalette(): void {
    const signal = this.abort.signal;
    this.palette = scanPalette();
    const roles = suggestRoles(this.palette);
    const grid = h('div', { class: 'palette' });
    for (const e of this.palette) {
      const sw = h('button', {
        class: 'swatch',
        type: 'button',
        title: `${e.hex} · used ${e.count}× (${Object.entries(e.usage)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')})${roles.get(e.hex) ? ` · suggested: ${roles.get(e.hex)}` : ''}`,
        'aria-label': `Add ${e.hex}, used ${e.count} times`,
        'data-hex': e.hex,
      });
      sw.style.background = e.hex;
      sw.append(h('span', {}, String(e.count)));
      sw.addEventListener(
        'click',
        () => {
          const c = parseHex(e.hex);
          if (c)
            void this.addColor(
              this.colorDraft(c, roles.get(e.hex) ?? 'custom', e.example ?? undefined, 'page palette'),
            );
        },
        { signal },
      );
      grid.append(sw);
    }
    const rescan = h('button', { class: 'btn secondary', type: 'button' }, 'Rescan');
    rescan.addEventListener('click', () => this.showPalette(), { signal });
    this.paletteEl.replaceChildren(
      grid,
      h('div', { class: 'kbd' }, `${this.palette.length} colours in use — click to add`),
      rescan,
    );
  }

  // ── modes ──────────────────────────────────────────────────────────────────────────────────

  private async toggleMode(mode: Exclude<Mode, 'idle'>): Promise<void> {
    if (this.mode === mode) {
      this.stopMode();
      return;
    }
    this.stopMode();
    if (mode === 'page') {
      await this.fullPage();
      return;
    }
    if (mode === 'color' && (await this.tryEyeDropper())) return;
    this.startMode(mode);
  }

  private setModeUi(mode: Mode): void {
    this.mode = mode;
    for (const [m, b] of this.modeButtons) b.setAttribute('aria-pressed', String(m === mode));
    if (mode !== 'idle') this.setStatus(MODE_LABELS[mode].hint);
  }

  private stopMode(): void {
    this.modeAbort?.abort();
    this.modeAbort = null;
    this.overlay.replaceChildren();
    if (this.mode !== 'idle' && this.mode !== 'page') this.setStatus('Ready.');
    this.setModeUi('idle');
  }

  private startMode(mode: 'element' | 'area' | 'color'): void {
    this.setModeUi(mode);
    this.modeAbort = new AbortController();
    const signal = AbortSignal.any([this.modeAbort.signal, this.abort.signal]);
    const shield = h('div', { class: 'shield', tabindex: -1 });
    const hl = h('div', { class: 'hl' });
    const label = h('div', { class: 'label' });
    hl.style.display = 'none';
    label.style.display = 'none';
    this.overlay.replaceChildren(shield, hl, label);
    shield.focus({ preventScroll: true });
    if (mode === 'area') this.runArea(shield, hl, label, signal);
    else this.runPointerPick(mode, shield, hl, label, signal);
  }

  private showLabel(label: HTMLElement, r: CssRect, parts: (string | Node)[]): void {
    label.replaceChildren(...parts);
    label.style.display = 'block';
    const top = r.y > 24 ? r.y - 22 : Math.min(window.innerHeight - 22, r.y + r.height + 4);
    label.style.left = `${Math.max(0, Math.min(r.x, window.innerWidth - 260))}px`;
    label.style.top = `${top}px`;
  }

  private runPointerPick(
    mode: 'element' | 'color',
    shield: HTMLElement,
    hl: HTMLElement,
    label: HTMLElement,
    signal: AbortSignal,
  ) {
    let current: Element | null = null;
    let frame = 0;
    let last = { x: 0, y: 0 };
    const update = () => {
      frame = 0;
      const el = pageElementAt(last.x, last.y);
      current = el;
      if (!el) {
        hl.style.display = 'none';
        label.style.display = 'none';
        return;
      }
      const r = domRect(el.getBoundingClientRect());
      hl.style.display = 'block';
      place(hl, r);
      if (mode === 'element') {
        this.showLabel(label, r, [
          h('b', {}, el.localName),
          ` ${this.selectorOf(el)}  ${Math.round(r.width)}×${Math.round(r.height)}`,
        ]);
      } else {
        const bg = effectiveBackground(el).color;
        const fg = toRgba(getComputedStyle(el).color);
        const sw = h('span', { class: 'dot' });
        sw.style.background = toHex(bg);
        sw.style.verticalAlign = 'middle';
        const ratio = fg ? contrastRatio(fg, bg) : null;
        this.showLabel(label, r, [
          sw,
          ` ${toHex(bg)}`,
          ratio ? `  text ${fg ? toHex(fg) : ''} ${ratio.toFixed(2)}:1 ${wcagRating(ratio)}` : '',
        ]);
      }
    };
    shield.addEventListener(
      'pointermove',
      (e) => {
        last = { x: e.clientX, y: e.clientY };
        if (!frame) frame = requestAnimationFrame(update);
      },
      { signal },
    );
    if (mode === 'element') {
      // The capture starts on the press: the veil is painted while the button is down, so the
      // click only has to capture. A press that ends in no capture puts the UI back at once.
      shield.addEventListener(
        'pointerdown',
        (e) => {
          if (e.button !== 0 || this.busy) return;
          const el = pageElementAt(e.clientX, e.clientY);
          const visible = el ? ToolbarApp.visiblePart(domRect(el.getBoundingClientRect())) : null;
          if (visible) void this.veil.lower(visible);
        },
        { signal },
      );
      const liftUnlessCapturing = () => {
        if (!this.busy && this.veil.lowered) this.veil.lift();
      };
      // `click` follows `pointerup` in the same task, so by the timeout a capture owns the veil.
      shield.addEventListener('pointerup', () => setTimeout(liftUnlessCapturing, 0), { signal });
      shield.addEventListener('pointercancel', liftUnlessCapturing, { signal });
      signal.addEventListener('abort', liftUnlessCapturing);
    }
    shield.addEventListener(
      'click',
      (e) => {
        e.preventDefault();
        last = { x: e.clientX, y: e.clientY };
        update();
        const el = current;
        if (!el) return;
        if (mode === 'element') {
          hl.style.display = 'none';
          label.style.display = 'none';
          void this.captureElement(el, 'element', domRect(el.getBoundingClientRect()));
        } else {
          const { color, from } = effectiveBackground(el);
          const cs = getComputedStyle(el);
          const fg = toRgba(cs.color) ?? undefined;
          const large = isLargeText(
            Number.parseFloat(cs.fontSize),
            Number.parseInt(cs.fontWeight, 10) || 400,
          );
          const source = from ?? el;
          const hex = toHex(color);
          void this.addColor(
            this.colorDraft(
              color,
              this.suggestedRole(hex),
              this.selectorOf(source),
              `background of ${this.selectorOf(source)}`,
              fg,
              large,
            ),
          );
        }
      },
      { signal },
    );
  }

  private async tryEyeDropper(): Promise<boolean> {
    const Ctor = (
      window as {
        EyeDropper?: new () => { open(o?: { signal?: AbortSignal }): Promise<{ sRGBHex: string }> };
      }
    ).EyeDropper;
    // Headless Chromium defines EyeDropper but open() never settles (there is no screen to sample).
    if (!Ctor || /HeadlessChrome/.test(navigator.userAgent)) return false;
    this.setModeUi('color');
    this.setStatus('Click anywhere on screen to sample a pixel (Esc cancels).');
    try {
      this.modeAbort = new AbortController();
      const { sRGBHex } = await new Ctor().open({ signal: this.modeAbort.signal });
      const c = toRgba(sRGBHex);
      if (c)
        await this.addColor(
          this.colorDraft(c, this.suggestedRole(toHex(c)), undefined, 'sampled with the eyedropper'),
        );
      this.setModeUi('idle');
      return true;
    } catch (err) {
      this.setModeUi('idle');
      // AbortError: the designer pressed Esc. Anything else: EyeDropper is unusable here (headless).
      return (err as { name?: string }).name === 'AbortError';
    }
  }

  private runArea(shield: HTMLElement, hl: HTMLElement, label: HTMLElement, signal: AbortSignal): void {
    hl.classList.add('section');
    let start: { x: number; y: number } | null = null;
    let selection: { rect: CssRect; anchor: Element | null } | null = null;
    let box: HTMLDivElement | null = null;
    let hovered: Element | null = null;

    const draw = () => {
      if (!selection) return;
      if (!box) {
        box = h('div', { class: 'area' });
        for (const handle of ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'] as Handle[]) {
          const el = h('div', { class: 'handle', 'data-h': handle });
          el.addEventListener('pointerdown', (e) => dragBox(e, handle), { signal });
          box.append(el);
        }
        const ok = h('button', { class: 'btn', type: 'button' }, 'Capture ⏎');
        const cancel = h('button', { class: 'btn secondary', type: 'button' }, 'Cancel');
        ok.addEventListener('click', () => void confirm(), { signal });
        cancel.addEventListener('click', () => this.stopMode(), { signal });
        box.append(h('div', { class: 'area-bar' }, cancel, ok));
        box.addEventListener(
          'pointerdown',
          (e) => {
            if (e.target === box) dragBox(e, null);
          },
          { signal },
        );
        this.overlay.append(box);
      }
      place(box, selection.rect);
      this.showLabel(label, selection.rect, [
        h('b', {}, 'area'),
        ` ${Math.round(selection.rect.width)}×${Math.round(selection.rect.height)}${selection.anchor ? `  ${this.selectorOf(selection.anchor)}` : ''}`,
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
      const move = (ev: PointerEvent) => {
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
      };
      const up = () => {
        target.removeEventListener('pointermove', move);
        target.removeEventListener('pointerup', up);
      };
      target.addEventListener('pointermove', move, { signal });
      target.addEventListener('pointerup', up, { signal });
    };

    const confirm = async () => {
      if (!selection) return;
      const { rect, anchor } = selection;
      const el = anchor ?? elementContaining(rect);
      this.stopMode();
      await this.captureElement(el, 'area', rect);
    };
    this.confirmArea = () => void confirm();

    shield.addEventListener(
      'pointerdown',
      (e) => {
        e.preventDefault();
        start = { x: e.clientX, y: e.clientY };
        shield.setPointerCapture(e.pointerId);
      },
      { signal },
    );
    shield.addEventListener(
      'pointermove',
      (e) => {
        if (start) {
          const r = rectFromPoints(start, { x: e.clientX, y: e.clientY });
          if (r.width < 4 && r.height < 4) return;
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
          hl.style.display = 'none';
          label.style.display = 'none';
          return;
        }
        const r = domRect(section.getBoundingClientRect());
        hl.style.display = 'block';
        place(hl, r);
        this.showLabel(label, r, [
          h('b', {}, section.localName),
          ` ${this.selectorOf(section)} — click to snap`,
        ]);
      },
      { signal },
    );
    shield.addEventListener(
      'pointerup',
      (e) => {
        const from = start;
        start = null;
        if (!from) return;
        const r = rectFromPoints(from, { x: e.clientX, y: e.clientY });
        if (r.width >= 4 || r.height >= 4) return;
        // A click, not a drag: snap to the nearest semantic section.
        const section = semanticSection(pageElementAt(e.clientX, e.clientY));
        if (!section) return;
        const vis = intersect(domRect(section.getBoundingClientRect()), {
          x: 0,
          y: 0,
          width: window.innerWidth,
          height: window.innerHeight,
        });
        if (!vis) return;
        hl.style.display = 'none';
        selection = { rect: vis, anchor: section };
        draw();
      },
      { signal },
    );
  }

  private confirmArea: (() => void) | null = null;

  private async fullPage(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.setModeUi('page');
    const bar = h('div', { class: 'progress' }, h('div'));
    const started = performance.now();
    try {
      this.status.append(bar);
      const item = await captureFullPage({
        hideUi: (hidden) => (hidden ? void this.veil.lower(null) : this.veil.lift()),
        progress: (done, total, note) => {
          this.setStatus(`Full page: ${done}/${total} ${note}`);
          const fill = bar.firstElementChild as HTMLElement | null;
          if (fill) fill.style.width = `${Math.round((done / total) * 100)}%`;
          this.status.append(bar);
        },
        signal: this.abort.signal,
      });
      if (this.collection)
        this.collection = { ...this.collection, elements: [...this.collection.elements, item] };
      this.render();
      const cut = item.capped_at ? ` The page is taller than ${item.capped_at}px; the shot stops there.` : '';
      const ms = Math.round(performance.now() - started);
      const size = `${item.crop?.width ?? 0}×${item.crop?.height ?? 0} px`;
      this.setStatus(`Full page captured (${size}) in ${ms} ms.${cut}`, 'ok');
    } catch (err) {
      this.fail(err);
    } finally {
      this.busy = false;
      this.setModeUi('idle');
    }
  }

  // ── keyboard ───────────────────────────────────────────────────────────────────────────────

  private onPanelKey(e: KeyboardEvent): void {
    const target = e.composedPath()[0];
    if (
      target instanceof HTMLTextAreaElement ||
      target instanceof HTMLSelectElement ||
      target instanceof HTMLInputElement
    )
      return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const mode = (['element', 'area', 'color', 'page'] as const).find(
      (m) => MODE_LABELS[m].key === e.key.toLowerCase(),
    );
    if (mode) {
      e.preventDefault();
      e.stopPropagation();
      void this.toggleMode(mode);
    }
  }

  private onGlobalKey(e: KeyboardEvent): void {
    if (this.mode === 'idle' || this.mode === 'page') return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopImmediatePropagation();
      this.stopMode();
    } else if (e.key === 'Enter' && this.mode === 'area' && this.confirmArea) {
      e.preventDefault();
      e.stopImmediatePropagation();
      this.confirmArea();
    }
  }
}
