import type { CollectedElement, CssRect } from '#shared/toolbar-messages.js';
import { sizeLabel } from '../capture-report.js';
import { domRect, h, iconButton, place } from '../dom.js';
import { resolveSelector } from '../dom-inspect.js';
import { ICONS } from '../icons.js';
import { send } from '../runtime.js';
import { trusted } from '../trusted.js';

/** A field in the middle of an edit: whose, which, and what it holds so far. */
interface Edit {
  key: string;
  instruction: boolean;
  value: string;
  start: number;
  end: number;
}

export interface ElementActions {
  comment(key: string, comment: string | null): void;
  /** A deep capture's instruction for the agent. */
  instruction(key: string, instruction: string): void;
  remove(key: string): void;
}

/**
 * The "Elements & areas" list: thumbnail, selector, kind and size, a note, locate and remove; for
 * a deep capture, its element and resource counts and its instruction. Thumbnails are fetched
 * from the worker once per item and cached until the item goes.
 */
export class ElementsView {
  private readonly thumbs = new Map<string, string>();
  /** The item whose deep capture is running. */
  private deepKey: string | null = null;

  constructor(
    readonly el: HTMLElement,
    private readonly overlay: HTMLElement,
    private readonly actions: ElementActions,
    private readonly signal: AbortSignal,
  ) {}

  /**
   * Shows an item while its exact capture runs: the thumbnail of the rest-frame preview, the
   * selector and size. The next render (the stored item) replaces it.
   */
  showPending(p: { selector: string; tag: string; width: number; height: number; thumb: string }): void {
    this.el.querySelector('.empty')?.remove();
    this.el.querySelector('.item.pending')?.remove();
    const thumb = h('div', { class: 'thumb' });
    thumb.style.backgroundImage = `url("${p.thumb}")`;
    this.el.append(
      h(
        'div',
        { class: 'item pending', 'aria-busy': 'true' },
        thumb,
        h(
          'div',
          { class: 'meta' },
          h('div', { class: 'sel', title: p.selector }, p.selector),
          h(
            'div',
            { class: 'sub' },
            `element · <${p.tag}> · ${Math.round(p.width)}×${Math.round(p.height)} · capturing…`,
          ),
        ),
      ),
    );
  }

  /** Removes a pending item (its capture failed). */
  clearPending(): void {
    this.el.querySelector('.item.pending')?.remove();
  }

  forget(key: string | null): void {
    if (key === null) this.thumbs.clear();
    else this.thumbs.delete(key);
  }

  /** Marks the item whose deep capture is running (null: none). */
  deepRunning(key: string | null): void {
    this.deepKey = key;
    for (const line of Array.from(this.el.querySelectorAll('.deep[aria-busy]'))) line.remove();
    if (key === null) return;
    this.meta(key)
      ?.querySelector('.sub')
      ?.after(h('div', { class: 'deep', 'aria-busy': 'true' }, 'Deep capture…'));
  }

  /**
   * Shows an item's finished deep capture in its row, in place: a full render would drop a note
   * the designer is typing meanwhile.
   */
  showDeep(item: CollectedElement): void {
    const meta = this.meta(item.key);
    for (const old of Array.from(meta?.querySelectorAll('.deep, textarea.instruction') ?? [])) old.remove();
    meta?.querySelector('.sub')?.after(...this.deepLines(item));
  }

  private meta(key: string): Element | null {
    return this.el.querySelector(`.item[data-key="${CSS.escape(key)}"] .meta`);
  }

  render(items: CollectedElement[]): void {
    const signal = this.signal;
    // Another capture can land while the designer types a note (saved on change, so not yet):
    // the new rows get what was typed, the caret and the focus back.
    const editing = this.editing();
    this.el.replaceChildren();
    if (items.length === 0) {
      this.el.append(h('div', { class: 'empty' }, 'Nothing yet — pick an element or draw an area.'));
      return;
    }
    for (const item of items) {
      const thumb = h('div', { class: 'thumb' });
      void this.thumbFor(item, thumb);
      const name = item.label ?? (item.kind === 'full_page' ? 'Full page' : item.selector);
      thumb.addEventListener('pointerenter', () => this.zoom(item, thumb), { signal });
      thumb.addEventListener('pointerleave', () => this.unzoom(), { signal });
      const note = this.field(item.comment ?? '', 'Add a note…', `Note for ${name}`, (text) =>
        this.actions.comment(item.key, text.trim() === '' ? null : text),
      );
      const locate = iconButton(ICONS.locate, 'Locate on page');
      locate.addEventListener(
        'click',
        trusted(() => this.locate(item)),
        { signal },
      );
      const remove = iconButton(ICONS.remove, 'Remove');
      remove.addEventListener(
        'click',
        trusted(() => this.actions.remove(item.key)),
        { signal },
      );
      const size = sizeLabel(item);
      const kind = item.kind === 'full_page' ? 'full page' : item.kind;
      const capped = item.capped_at ? ` · cut at ${item.capped_at}px` : '';
      const from = otherPage(item.page_url);
      this.el.append(
        h(
          'div',
          { class: 'item', 'data-key': item.key },
          thumb,
          h(
            'div',
            { class: 'meta' },
            h('div', { class: 'name', title: name }, name),
            h('div', { class: 'sel', title: item.selector }, item.selector),
            h('div', { class: 'sub' }, `${kind} · <${item.tag}> · ${size}${capped}`),
            ...(from ? [h('div', { class: 'sub from', title: item.page_url }, `from ${from}`)] : []),
            ...this.deepLines(item),
            caption('Note', note),
          ),
          h('div', { class: 'actions' }, locate, remove),
        ),
      );
    }
    if (editing !== null) this.resume(editing);
  }

  /** The note or instruction field being typed in, if any. */
  private editing(): Edit | null {
    const active = (this.el.getRootNode() as Document | ShadowRoot).activeElement;
    if (!(active instanceof HTMLTextAreaElement) || !this.el.contains(active)) return null;
    const key = active.closest('.item')?.getAttribute('data-key');
    if (key == null) return null;
    return {
      key,
      instruction: active.classList.contains('instruction'),
      value: active.value,
      start: active.selectionStart,
      end: active.selectionEnd,
    };
  }

  private resume(edit: Edit): void {
    const field = Array.from(
      this.meta(edit.key)?.querySelectorAll<HTMLTextAreaElement>('textarea') ?? [],
    ).find((t) => t.classList.contains('instruction') === edit.instruction);
    if (field === undefined) return; // the item went away meanwhile
    field.value = edit.value;
    field.focus();
    field.setSelectionRange(edit.start, edit.end);
  }

  /**
   * A one-line text field that saves when its edit ends (it loses the focus; Enter without Shift
   * ends it) with a text other than the one last saved. Not on `change`: a field drawn again in the
   * middle of an edit gets the typed text back programmatically (`resume`), which `change` ignores.
   */
  private field(value: string, placeholder: string, label: string, save: (text: string) => void) {
    const signal = this.signal;
    const field = h('textarea', { rows: 1, placeholder, 'aria-label': label });
    field.value = value;
    // Grows with its text (up to the CSS max-height), so wrapped words are never hidden.
    const grow = () => {
      field.style.height = 'auto';
      field.style.height = `${field.scrollHeight + 2}px`;
    };
    field.addEventListener('input', grow, { signal });
    requestAnimationFrame(grow);
    let saved = value;
    field.addEventListener(
      'blur',
      trusted(() => {
        if (field.value === saved) return;
        saved = field.value;
        save(saved);
      }),
      { signal },
    );
    field.addEventListener(
      'keydown',
      trusted((e) => {
        if (e.key === 'Enter' && !e.shiftKey) {
          e.preventDefault();
          field.blur();
        }
      }),
      { signal },
    );
    return field;
  }

  /** A deep capture's counts and instruction (or that it is running). */
  private deepLines(item: CollectedElement): HTMLElement[] {
    if (item.key === this.deepKey && !item.deep)
      return [h('div', { class: 'deep', 'aria-busy': 'true' }, 'Deep capture…')];
    const d = item.deep;
    if (!d) return [];
    const skipped = d.skipped_count > 0 ? ` · ${d.skipped_count} not fetched` : '';
    const counts = `deep · ${d.element_count} elements · ${d.resource_count} resources${skipped}`;
    const instruction = this.field(
      d.instruction,
      'Instruction for the agent…',
      `Instruction for ${item.selector}`,
      (text) => this.actions.instruction(item.key, text.trim()),
    );
    instruction.classList.add('instruction');
    return [h('div', { class: 'deep' }, counts), caption('Instruction for the agent', instruction)];
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

  /** A larger preview of an item's crop beside the panel while the pointer is on its thumbnail. */
  private zoom(item: CollectedElement, thumb: HTMLElement): void {
    const url = this.thumbs.get(item.key);
    if (!url) return;
    this.unzoom();
    const r = thumb.getBoundingClientRect();
    const box = item.bounding_box;
    const scale = Math.min(1, 320 / Math.max(1, box.width), 240 / Math.max(1, box.height));
    const width = Math.max(1, Math.round(box.width * scale));
    const height = Math.max(1, Math.round(box.height * scale));
    const left = r.left - width - 12 >= 0 ? r.left - width - 12 : r.right + 12;
    const top = Math.min(Math.max(0, r.top - height / 2), Math.max(0, window.innerHeight - height));
    const zoom = h('div', { class: 'zoom' });
    place(zoom, { x: left, y: top, width, height });
    zoom.style.backgroundImage = `url("${url}")`;
    this.overlay.append(zoom);
  }

  private unzoom(): void {
    for (const z of Array.from(this.overlay.querySelectorAll('.zoom'))) z.remove();
  }

  /** Scrolls the item into view and flashes a frame around it. */
  private locate(item: CollectedElement): void {
    let target: Element | null = null;
    if (item.kind === 'element') {
      target = resolveSelector(item.selector);
    }
    if (target) target.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    else window.scrollTo({ top: Math.max(0, item.bounding_box.y - 40), behavior: 'instant' });
    requestAnimationFrame(() => {
      const r: CssRect = target
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
}

/**
 * Where an item was captured, when that is not this page (host and path, without query or
 * fragment): captures survive navigation, and an item from another page must say so.
 */
export function otherPage(pageUrl: string, here: string = location.href): string | null {
  try {
    const from = new URL(pageUrl);
    const now = new URL(here);
    if (from.origin === now.origin && from.pathname === now.pathname) return null;
    const where = `${from.host}${from.pathname}`;
    return where.length > 60 ? `${where.slice(0, 59)}…` : where;
  } catch {
    return null;
  }
}

/** A text field with its visible caption: the note and the instruction no longer look the same. */
function caption(text: string, field: HTMLTextAreaElement): HTMLLabelElement {
  return h('label', { class: 'field' }, h('span', { class: 'caption' }, text), field);
}
