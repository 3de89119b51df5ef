import type { Collection, IdeasListing } from '#shared/toolbar-messages.js';
import { h } from '../dom.js';
import { trusted } from '../trusted.js';

export interface SaveFormState {
  collection: Collection | null;
  ideas: IdeasListing | null;
  /** Why saving is not possible right now (host not connected, idea list failed), if so. */
  problem?: string | undefined;
  /** Captures in flight: the panel already shows them, and a save waits for them. */
  pending: number;
  /** A save is under way: Save is off until it ends (a second click would save the items twice). */
  saving: boolean;
}

export interface SaveActions {
  save(workspace: string, ideaFolder: string): void;
  reloadIdeas(): void;
}

/**
 * "Save to idea": workspace (when there are several) and idea folder, preselecting the last
 * target, with the number of sessions each idea has; Save and ↻ (ask the host for the list again).
 *
 * Built once and updated in place: the panel re-renders whenever a capture lands or the idea list
 * arrives, and a rebuilt button under a pressed mouse button never gets its click, while rebuilt
 * selects would put the designer's choice back to the last target.
 */
export class SaveForm {
  private readonly problem = h('div', { class: 'empty' });
  private readonly workspace = h('select', { 'aria-label': 'Workspace' });
  private readonly idea = h('select', { 'aria-label': 'Idea folder' });
  private readonly button = h('button', { class: 'btn', type: 'button' });
  private ideas: IdeasListing | null = null;
  /** What the options were last built from (JSON), so unchanged ones are left alone. */
  private built = '';
  /** What the designer chose in the selects, kept over re-renders while it is still offered. */
  private chosen: { workspace?: string; idea?: string } = {};

  constructor(container: HTMLElement, actions: SaveActions, signal: AbortSignal) {
    const reload = h('button', { class: 'btn secondary', type: 'button', title: 'Reload idea folders' }, '↻');
    reload.style.flex = '0 0 36px';
    reload.addEventListener(
      'click',
      trusted(() => actions.reloadIdeas()),
      { signal },
    );
    this.button.addEventListener(
      'click',
      trusted(() => actions.save(this.workspace.value, this.idea.value)),
      { signal },
    );
    this.workspace.addEventListener(
      'change',
      trusted(() => {
        this.chosen = { workspace: this.workspace.value };
        this.fillIdeas(undefined);
      }),
      { signal },
    );
    this.idea.addEventListener(
      'change',
      trusted(() => (this.chosen.idea = this.idea.value)),
      { signal },
    );
    container.replaceChildren(
      this.problem,
      this.workspace,
      this.idea,
      h('div', { class: 'row' }, this.button, reload),
    );
  }

  update(state: SaveFormState): void {
    this.problem.textContent = state.problem ?? '';
    this.problem.hidden = !state.problem;
    const c = state.collection;
    const last = c?.last_target;
    const workspaces = state.ideas?.workspaces ?? [];
    this.workspace.hidden = workspaces.length <= 1;
    // Rebuilt only when the listing or the last target changed (a save moves both).
    const built = JSON.stringify([state.ideas, last ?? null]);
    if (built !== this.built) {
      this.built = built;
      this.ideas = state.ideas;
      this.workspace.replaceChildren(...workspaces.map((w) => h('option', { value: w.path }, w.path)));
      const ws = [this.chosen.workspace, last?.workspace].find((p) => workspaces.some((w) => w.path === p));
      if (ws !== undefined) this.workspace.value = ws;
      this.fillIdeas(last?.idea_folder);
    }
    const count = (c ? c.elements.length + c.colors.length : 0) + state.pending;
    this.button.disabled = state.saving || count === 0 || workspaces.length === 0;
    this.button.textContent = state.saving ? 'Saving…' : `Save ${count} item${count === 1 ? '' : 's'}`;
  }

  /** The idea folders of the selected workspace, selecting the designer's choice, else `last`. */
  private fillIdeas(last: string | undefined): void {
    const workspaces = this.ideas?.workspaces ?? [];
    const w = workspaces.find((x) => x.path === this.workspace.value) ?? workspaces[0];
    const ideas = w?.ideas ?? [];
    this.idea.replaceChildren(
      ...ideas.map((i) =>
        h(
          'option',
          { value: i.name },
          i.session_count > 0
            ? `${i.name} (${i.session_count} session${i.session_count === 1 ? '' : 's'})`
            : i.name,
        ),
      ),
    );
    if (ideas.length === 0) {
      this.idea.append(h('option', { value: '', disabled: true }, 'No idea folders'));
      this.idea.value = '';
      return;
    }
    const pick = [this.chosen.idea, last].find((n) => ideas.some((i) => i.name === n));
    this.idea.value = pick ?? ideas[0]?.name ?? '';
  }
}
