import type {
  CollectedElement,
  Collection,
  ColorDraft,
  CssRect,
  IdeasListing,
  ItemChange,
} from '../../../../shared/src/toolbar-messages.js';
import { reportCrop, reportFullElement } from './capture-report.js';
import type { CaptureVeil } from './capture-veil.js';
import { deepCapture } from './deep-capture.js';
import { DeferredRemoval } from './deferred-removal.js';
import { visiblePart } from './dom.js';
import { pageTypography, viewportInfo } from './dom-inspect.js';
import { elementDraft } from './drafts.js';
import { captureFullPage } from './full-page.js';
import { decodePixels, type Pixels } from './pixels.js';
import { inTurn, send, ToolbarFailure } from './runtime.js';
import type { StatusLine } from './status-line.js';
import { renderColors } from './views/colors-view.js';
import type { DeepChoice } from './views/deep-options.js';
import { ElementsView } from './views/elements-view.js';
import { SaveForm } from './views/save-form.js';

export interface CollectionElements {
  badge: HTMLElement;
  list: HTMLElement;
  colors: HTMLElement;
  save: HTMLElement;
  overlay: HTMLElement;
  status: StatusLine;
  veil: CaptureVeil;
}

/**
 * The page's copy of the tab's collection. The worker owns the collection (it survives the
 * toolbar); every change is a request to it, and its answer is what gets rendered here.
 */
export class CollectionSync {
  private collection: Collection | null = null;
  private ideas: IdeasListing | null = null;
  /**
   * The capture job in flight, if any; `item` when it ends in an item of the list (an element, an
   * area, a full element or page; not a colour's pixels, which are added after the job).
   */
  private job: { item: boolean; done: Promise<unknown> } | null = null;
  private saving = false;
  /** Why saving is not possible (host down, idea list failed), shown until the idea list loads. */
  private problem: string | undefined;
  private readonly elements: ElementsView;
  private readonly saveForm: SaveForm;
  /** Remove takes effect in the worker a moment later, so Undo can bring the item back whole. */
  private readonly removals = new DeferredRemoval((key) => this.remove(key));

  constructor(
    private readonly ui: CollectionElements,
    private readonly signal: AbortSignal,
  ) {
    this.elements = new ElementsView(
      ui.list,
      ui.overlay,
      {
        comment: (key, comment) => void this.update(key, { comment }),
        instruction: (key, instruction) => void this.update(key, { instruction }),
        remove: (key) => void this.removeUndoably(key),
      },
      signal,
    );
    signal.addEventListener('abort', () => void this.removals.flush(), { once: true });
    this.saveForm = new SaveForm(
      ui.save,
      { save: (ws, idea) => void this.save(ws, idea), reloadIdeas: () => void this.loadIdeas() },
      signal,
    );
  }

  /** Element captures started, and previews asked for: a late preview never shows over newer news. */
  private captures = 0;
  private previews = 0;

  /** A capture is in flight. */
  get busy(): boolean {
    return this.job !== null;
  }

  async refresh(): Promise<void> {
    try {
      const state = await send({
        type: 'xipe-toolbar:get_state',
        page_url: location.href,
        typography: pageTypography(),
      });
      this.collection = state.collection;
      this.render();
      if (!state.host_connected) {
        this.problem =
          'The X-IPE host is not connected: captures are kept, saving needs `x-ipe-uiux install`.';
        this.renderSave();
      }
      // When the host is down the worker reconnects by itself: the list comes as soon as it is back.
      void this.loadIdeas();
    } catch (err) {
      this.ui.status.fail(err);
    }
  }

  /**
   * Loads the workspaces and idea folders from the host. A host that is (re)starting answers with
   * an error for a moment, so keep asking with back-off (1 s doubling to 8 s, about a minute in all)
   * until it answers or the toolbar closes; the ↻ button asks again at once.
   */
  async loadIdeas(): Promise<void> {
    const signal = this.signal;
    for (let attempt = 0, delay = 1000; attempt < 10 && !signal.aborted; attempt += 1) {
      try {
        this.ideas = await send({ type: 'xipe-toolbar:list_ideas' });
        this.problem = undefined;
        this.renderSave();
        return;
      } catch (err) {
        if (this.ideas === null) {
          this.problem = err instanceof Error ? err.message : String(err);
          this.renderSave();
        }
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }

  /** The collection as the designer sees it: without the item whose removal can still be undone. */
  private get shown(): Collection | null {
    const c = this.collection;
    const gone = this.removals.key;
    if (!c || gone === null) return c;
    return {
      ...c,
      elements: c.elements.filter((e) => e.key !== gone),
      colors: c.colors.filter((e) => e.key !== gone),
    };
  }

  private render(): void {
    const c = this.shown;
    if (!c) return;
    this.renderBadge(c);
    this.elements.render(c.elements);
    this.renderColors(c);
    this.renderSave();
  }

  private renderBadge(c: Collection): void {
    this.ui.badge.textContent = String(c.elements.length + c.colors.length);
  }

  private renderColors(c: Collection): void {
    renderColors(
      this.ui.colors,
      c.colors,
      {
        role: (key, role) => void this.update(key, { role }),
        remove: (key) => void this.removeUndoably(key),
      },
      this.signal,
    );
  }

  private renderSave(): void {
    this.saveForm.update({
      collection: this.shown,
      ideas: this.ideas,
      problem: this.problem,
      pending: this.job?.item ? 1 : 0,
      saving: this.saving,
    });
  }

  private async update(key: string, change: ItemChange): Promise<void> {
    try {
      const c = await send({ type: 'xipe-toolbar:update_item', key, ...change });
      this.collection = c;
      const shown = this.shown ?? c;
      if (change.role) this.renderColors(shown);
      this.renderBadge(shown);
      if (change.comment !== undefined) this.ui.status.flash('Note saved.');
      if (change.instruction !== undefined) this.ui.status.flash('Instruction saved.');
    } catch (err) {
      this.ui.status.fail(err);
    }
  }

  /** The designer's Remove: gone from the list at once, with Undo (Ctrl+Z) offered for a moment. */
  private async removeUndoably(key: string): Promise<void> {
    const c = this.collection;
    const element = c?.elements.find((e) => e.key === key);
    const color = c?.colors.find((e) => e.key === key);
    const what = element ? element.selector : color ? color.hex : 'the item';
    await this.removals.defer(key);
    this.render();
    this.ui.status.offer(`Removed ${what}.`, 'ok', {
      name: 'undo',
      label: 'Undo (Ctrl+Z)',
      run: () => this.undo(),
    });
  }

  /** Brings back the item removed last, while its removal can still be taken back. */
  undo(): boolean {
    if (!this.removals.undo()) return false;
    this.render();
    this.ui.status.set('Restored.', 'ok');
    return true;
  }

  private async remove(key: string): Promise<void> {
    try {
      this.collection = await send({ type: 'xipe-toolbar:remove_item', key });
      this.elements.forget(key);
      this.render();
    } catch (err) {
      this.ui.status.fail(err);
    }
  }

  private async save(workspace: string, ideaFolder: string): Promise<void> {
    const status = this.ui.status;
    if (!ideaFolder) {
      status.set('Choose an idea folder first.', 'error');
      return;
    }
    if (this.saving) return;
    this.saving = true;
    this.renderSave();
    try {
      await this.removals.flush();
      // The panel already lists a capture in flight (its preview, "Save N items"): it is saved too.
      if (this.job?.item) status.set(`Saving to ${ideaFolder} once the capture in progress is stored…`);
      while (this.job?.item) await this.job.done;
      status.set(`Saving to ${ideaFolder}…`);
      const r = await send({
        type: 'xipe-toolbar:save',
        idea_folder: ideaFolder,
        ...(workspace ? { workspace } : {}),
      });
      this.elements.forget(null);
      const saved = `Saved session ${r.session_number} → ${r.session_path}`;
      status.set(saved, 'ok');
      const state = await send({ type: 'xipe-toolbar:get_state', page_url: location.href });
      this.collection = state.collection;
      this.render();
      status.set(saved, 'ok');
      void this.loadIdeas();
    } catch (err) {
      const hint =
        err instanceof ToolbarFailure && err.code === 'IDEA_NOT_FOUND' ? ' (reload the idea list)' : '';
      status.set(
        `Not saved: ${err instanceof Error ? err.message : String(err)}${hint} — your captures are kept.`,
        'error',
      );
    } finally {
      this.saving = false;
      this.renderSave();
    }
  }

  /**
   * Runs a capture job with `busy` set (callers refuse to start another meanwhile); `item` when it
   * ends in an item of the list, which a save then waits for.
   */
  async exclusive<T>(job: () => Promise<T>, item = true): Promise<T> {
    const running: { item: boolean; done: Promise<unknown> } = { item, done: Promise.resolve() };
    this.job = running;
    if (item) this.renderSave();
    try {
      const result = job();
      running.done = result.catch(() => undefined);
      return await result;
    } finally {
      this.job = null;
      if (item) this.renderSave();
    }
  }

  /** Asks the worker to capture the viewport while the pointer rests (null when that would delay a capture). */
  async restFrame(): Promise<string | null> {
    if (this.busy) return null;
    return (await send({ type: 'xipe-toolbar:rest_frame', viewport: viewportInfo() })).frame;
  }

  /**
   * Shows the element at once, cut from the rest frame (taken while nothing changed since), while
   * its exact capture runs; the stored item replaces it.
   */
  async preview(frame: Promise<string | null>, el: Element, rect: CssRect, selector: string): Promise<void> {
    const token = ++this.previews;
    const captures = this.captures;
    const id = await frame;
    if (!id || token !== this.previews) return;
    const { data_url } = await send({ type: 'xipe-toolbar:preview', frame: id, crop: rect });
    // Not after a newer press, nor once a capture that started since has already listed its item.
    if (!data_url || token !== this.previews || (this.captures > captures && !this.busy)) return;
    this.elements.showPending({
      selector,
      tag: el.localName,
      width: rect.width,
      height: rect.height,
      thumb: data_url,
    });
  }

  /** The press ended in no capture: the preview goes. */
  cancelPreview(): void {
    this.previews += 1;
    if (!this.busy) this.elements.clearPending();
  }

  /**
   * Captures an element or area: styles from the page, the crop from the worker, with the toolbar
   * hidden and the page masked outside the crop meanwhile. Ignored while another capture runs.
   */
  async captureElement(
    el: Element,
    kind: 'element' | 'area',
    rect: CssRect,
    selector: string,
    deep: () => DeepChoice | null = () => null,
  ): Promise<void> {
    if (this.busy) return;
    const choice = deep();
    this.captures += 1;
    const started = performance.now();
    const veil = this.ui.veil;
    try {
      await this.exclusive(async () => {
        const visible = visiblePart(rect);
        if (!visible) throw new Error('That is outside the visible page; scroll to it first.');
        const draft = elementDraft(el, kind, rect, selector);
        const item = await inTurn(async () => {
          try {
            // An element is cropped clear of layers floating over it; an area is what was drawn.
            await veil.lower(visible, { clearOf: kind === 'element' ? el : null });
            return await send({
              type: 'xipe-toolbar:capture_element',
              draft,
              crop: visible,
              viewport: viewportInfo(),
            });
          } finally {
            veil.lift();
          }
        });
        this.added(item);
        if (choice) {
          // In the same page state as the crop: the mode's shield is still up (no :hover).
          const stored = await deepCapture(item, visible, choice.instruction, this.ui.status, this.elements);
          if (stored) this.deepDone(stored);
          return;
        }
        reportCrop(this.ui.status, item, { el, kind, rect, visible, started }, () => {
          void this.captureFullElement(el, selector, item.key);
        });
      });
    } catch (err) {
      this.elements.clearPending();
      this.ui.status.fail(err);
    }
  }

  /**
   * Scroll-and-stitch of an element taller than the viewport (as the full page is stitched); the
   * item of its visible part (`replaces`) gives way to it.
   */
  async captureFullElement(el: Element, selector: string, replaces: string): Promise<void> {
    if (this.busy) return;
    const started = performance.now();
    const status = this.ui.status;
    try {
      // One job: a save waiting for it finds the whole element in place of its visible part.
      const item = await this.exclusive(async () => {
        const shot = await captureFullPage(
          {
            veil: this.ui.veil,
            progress: (done, total) => status.progress(`Full element: ${done}/${total}`, done / total),
            signal: this.signal,
          },
          { el, selector },
        );
        this.added(shot.item);
        await this.remove(replaces);
        return shot.item;
      });
      reportFullElement(status, item, Math.round(performance.now() - started));
    } catch (err) {
      status.fail(err);
    }
  }

  /**
   * The device pixels of a viewport rectangle as the page paints them, captured with the toolbar
   * hidden (and the rest of the viewport masked: a small capture is a quick one); null when none of
   * it is visible. Refused while another capture runs.
   */
  async sample(rect: CssRect): Promise<Pixels | null> {
    if (this.busy) return null;
    const veil = this.ui.veil;
    return this.exclusive(async () => {
      const visible = visiblePart(rect);
      if (!visible) return null;
      const shot: { data_url: string } | null = await inTurn(async () => {
        try {
          await veil.lower(visible);
          return await send({ type: 'xipe-toolbar:sample', crop: visible, viewport: viewportInfo() });
        } finally {
          veil.lift();
        }
      });
      return shot ? decodePixels(shot.data_url) : null;
    }, false);
  }

  async addColor(draft: ColorDraft): Promise<void> {
    try {
      const item = await send({ type: 'xipe-toolbar:add_color', draft });
      if (this.collection)
        this.collection = { ...this.collection, colors: [...this.collection.colors, item] };
      this.render();
      this.ui.status.set(`Added ${item.hex} as ${item.role}.`, 'ok');
    } catch (err) {
      this.ui.status.fail(err);
    }
  }

  /** Lists an element the worker has stored. */
  added(item: CollectedElement): void {
    if (this.collection)
      this.collection = { ...this.collection, elements: [...this.collection.elements, item] };
    this.render();
  }

  /** An item's deep capture is staged: its row shows it in place (a note being typed stays). */
  private deepDone(item: CollectedElement): void {
    const c = this.collection;
    if (c) this.collection = { ...c, elements: c.elements.map((e) => (e.key === item.key ? item : e)) };
    this.elements.showDeep(item);
  }
}
