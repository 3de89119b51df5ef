import type { Collection, IdeasListing } from '../../../../../shared/src/toolbar-messages.js';
import { h } from '../dom.js';

export interface SaveFormState {
  collection: Collection | null;
  ideas: IdeasListing | null;
  /** Why saving is not possible right now (host not connected, idea list failed), if so. */
  problem?: string | undefined;
}

export interface SaveActions {
  save(workspace: string, ideaFolder: string): void;
  reloadIdeas(): void;
}

/**
 * "Save to idea": workspace (when there are several) and idea folder, preselecting the last
 * target, with the number of sessions each idea has; Save and ↻ (ask the host for the list again).
 */
export function renderSaveForm(
  container: HTMLElement,
  state: SaveFormState,
  actions: SaveActions,
  signal: AbortSignal,
): void {
  container.replaceChildren();
  const c = state.collection;
  const count = c ? c.elements.length + c.colors.length : 0;
  if (state.problem) container.append(h('div', { class: 'empty' }, state.problem));
  const workspaces = state.ideas?.workspaces ?? [];
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
  save.addEventListener('click', () => actions.save(ws.value, idea.value), { signal });
  const reload = h('button', { class: 'btn secondary', type: 'button', title: 'Reload idea folders' }, '↻');
  reload.style.flex = '0 0 36px';
  reload.addEventListener('click', () => actions.reloadIdeas(), { signal });
  if (workspaces.length > 1) container.append(ws);
  container.append(idea, h('div', { class: 'row' }, save, reload));
}
