import type {
  CollectedElement,
  Collection,
  ColorDraft,
  IdeasListing,
  ItemChange,
} from '#shared/toolbar-messages.js';
import { CaptureJobs } from './capture-jobs.js';
import type { CaptureVeil } from './capture-veil.js';
import { DeferredRemoval } from './deferred-removal.js';
import { pageTypography } from './dom-inspect.js';
import { LeaveGuard } from './leave-guard.js';
import { send, ToolbarFailure } from './runtime.js';
import type { StatusLine } from './status-line.js';
import { renderColors } from './views/colors-view.js';
import { ElementsView, otherPage } from './views/elements-view.js';
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
  private saving = false;
  /** Why saving is not possible (host down, idea list failed), shown until the idea list loads. */
  private problem: string | undefined;
  private readonly elements: ElementsView;
  private readonly saveForm: SaveForm;
  /** Remove takes effect in the worker a moment later, so Undo can bring the item back whole. */
  private readonly removals = new DeferredRemoval((key) => this.remove(key));
  /** Captures: one job at a time, each ending in an item of the list (or a colour's pixels). */
  readonly jobs: CaptureJobs;
  /** The leave-page prompt while this page's captures are unsaved. */
  readonly leaveGuard: LeaveGuard;

  constructor(
    private readonly ui: CollectionElements,
    private readonly signal: AbortSignal,
  ) {
    this.leaveGuard = new LeaveGuard(signal);
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
    this.jobs = new CaptureJobs(
      { status: ui.status, veil: ui.veil, elements: this.elements, signal },
      {
        added: (item) => this.added(item),
        deepDone: (item) => this.deepDone(item),
        removeNow: (key) => this.remove(key),
        changed: () => this.renderSave(),
      },
    );
    this.saveForm = new SaveForm(
      ui.save,
      { save: (ws, idea) => void this.save(ws, idea), reloadIdeas: () => void this.loadIdeas() },
      signal,
    );
  }

  /** A capture is in flight. */
  get busy(): boolean {
    return this.jobs.busy;
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
    const here = (item: { page_url: string }) => otherPage(item.page_url) === null;
    this.leaveGuard.set(c.elements.some(here) || c.colors.some(here));
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
      pending: this.jobs.itemPending ? 1 : 0,
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

  async remove(key: string): Promise<void> {
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
      if (this.jobs.itemPending)
        status.set(`Saving to ${ideaFolder} once the capture in progress is stored…`);
      await this.jobs.itemsStored();
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
  deepDone(item: CollectedElement): void {
    const c = this.collection;
    if (c) this.collection = { ...c, elements: c.elements.map((e) => (e.key === item.key ? item : e)) };
    this.elements.showDeep(item);
  }
}
