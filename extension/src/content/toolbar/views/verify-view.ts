import type { CompareOutcome, IdeasListing } from '#shared/toolbar-messages.js';
import { h } from '../dom.js';
import { pageElementAt, selectorFor } from '../dom-inspect.js';
import { PickLayer } from '../modes/pick-layer.js';
import { send } from '../runtime.js';
import type { StatusLine } from '../status-line.js';
import { trusted } from '../trusted.js';
import { nudgeFor, offsetText } from '../verify/overlay-math.js';
import type { ReferenceOverlay } from '../verify/reference-overlay.js';

export interface VerifyViewParts {
  /** The toolbar's overlay layer: the lock's pick shield goes there. */
  layer: HTMLElement;
  /** The toolbar's shadow root: a key typed in its slider is the slider's, not a nudge. */
  shadow: ShadowRoot;
  toolbarHost: HTMLElement;
  status: StatusLine;
  overlay: ReferenceOverlay;
}

/**
 * "Overlay & compare": the designer's side of the verify loop. Pick an idea and one of its
 * deep-captured areas; Overlay shows the area's screenshot over this page (views only the bytes
 * the host read: no URL into the workspace), with an opacity slider, a difference blend, arrow-key
 * nudging (Shift: 10 px) and a lock to an element; Compare asks the host for the same comparison
 * an agent's `compare_with_reference` runs, with this tab's page as the candidate and the locked
 * element (if any) as its region, and lists the scores and the largest differences.
 *
 * Nothing is asked of the host until the designer reaches into this section, and nothing runs
 * while the overlay is off.
 */
export class VerifyView {
  private readonly idea = h('select', { 'aria-label': 'Idea folder to verify against' });
  private readonly area = h('select', { 'aria-label': 'Captured area' });
  private readonly toggle = h(
    'button',
    { class: 'btn secondary', type: 'button', 'aria-pressed': 'false' },
    'Overlay',
  );
  private readonly lockButton = h(
    'button',
    { class: 'btn secondary', type: 'button', 'aria-pressed': 'false' },
    'Lock to element',
  );
  private readonly compareButton = h('button', { class: 'btn', type: 'button' }, 'Compare');
  private readonly opacity = h('input', {
    type: 'range',
    min: 0,
    max: 100,
    value: 50,
    'aria-label': 'Overlay opacity',
  });
  private readonly difference = h('input', { type: 'checkbox', 'aria-label': 'Difference blend' });
  private readonly where = h('span', { class: 'verify-where' }, 'no offset');
  private readonly results = h('div', { class: 'verify-results' });
  private readonly ideas: Array<{ workspace: string; idea: string }> = [];
  private loading: Promise<void> | null = null;
  private picking: AbortController | null = null;

  constructor(
    container: HTMLElement,
    private readonly parts: VerifyViewParts,
    private readonly signal: AbortSignal,
  ) {
    const on = <E extends Event>(el: EventTarget, type: string, fn: (e: E) => void) =>
      el.addEventListener(type, trusted(fn as (e: Event) => void), { signal });
    container.append(
      h('div', { class: 'row' }, this.idea, this.area),
      h('div', { class: 'row' }, this.toggle, this.lockButton),
      h(
        'div',
        { class: 'row verify-controls' },
        h('label', {}, 'Opacity', this.opacity),
        h('label', {}, this.difference, 'Difference'),
      ),
      h('div', { class: 'verify-where-row' }, this.where),
      this.compareButton,
      this.results,
    );
    // The host is asked for ideas only once the designer reaches into the section.
    container.addEventListener('pointerenter', () => void this.load(), { signal, once: true });
    container.addEventListener('focusin', () => void this.load(), { signal, once: true });
    on(this.idea, 'change', () => void this.loadAreas().catch((err: unknown) => parts.status.fail(err)));
    on(this.area, 'change', () => {
      if (parts.overlay.shown) void this.showOverlay();
    });
    on(this.toggle, 'click', () => void (parts.overlay.shown ? this.hideOverlay() : this.showOverlay()));
    on(this.lockButton, 'click', () => (parts.overlay.lockedTo ? this.unlock() : this.pickLock()));
    on(this.compareButton, 'click', () => void this.compare());
    on(this.opacity, 'input', () => parts.overlay.setOpacity(Number(this.opacity.value)));
    on(this.difference, 'change', () => parts.overlay.setDifference(this.difference.checked));
    signal.addEventListener('abort', () => parts.overlay.hide(), { once: true });
  }

  /** Fills the ideas (once; every caller waits for the same load), then the first idea's areas. */
  load(): Promise<void> {
    this.loading ??= (async () => {
      try {
        this.fillIdeas(await send({ type: 'xipe-toolbar:list_ideas' }));
        await this.loadAreas();
      } catch (err) {
        this.loading = null;
        this.parts.status.fail(err);
      }
    })();
    return this.loading;
  }

  private fillIdeas(listing: IdeasListing): void {
    this.ideas.length = 0;
    const options: HTMLOptionElement[] = [];
    for (const ws of listing.workspaces)
      for (const idea of ws.ideas) {
        options.push(h('option', { value: String(this.ideas.length) }, idea.name));
        this.ideas.push({ workspace: ws.path, idea: idea.name });
      }
    this.idea.replaceChildren(...options);
  }

  private chosenIdea(): { workspace: string; idea_folder: string } | null {
    const picked = this.ideas[Number(this.idea.value)];
    return picked ? { workspace: picked.workspace, idea_folder: picked.idea } : null;
  }

  private async loadAreas(): Promise<void> {
    const idea = this.chosenIdea();
    if (idea === null) {
      this.area.replaceChildren(h('option', { value: '' }, 'No idea folders'));
      return;
    }
    const { areas } = await send({ type: 'xipe-toolbar:verify_areas', ...idea });
    this.area.replaceChildren(
      ...(areas.length === 0
        ? [h('option', { value: '' }, 'No captured areas yet')]
        : areas.map((a) =>
            h(
              'option',
              { value: a.area_id },
              `${a.area_id} · ${Math.round(a.width)}×${Math.round(a.height)}${a.instruction ? ` · ${a.instruction.slice(0, 40)}` : ''}`,
            ),
          )),
    );
  }

  private chosenArea(): { workspace: string; idea_folder: string; area_id: string } | null {
    const idea = this.chosenIdea();
    return idea !== null && this.area.value !== '' ? { ...idea, area_id: this.area.value } : null;
  }

  private async showOverlay(): Promise<void> {
    await this.load();
    const area = this.chosenArea();
    if (area === null) {
      this.parts.status.set(
        'Choose an idea with a captured area first (capture_area, or Deep capture in Area mode).',
        'error',
      );
      return;
    }
    try {
      const image = await send({ type: 'xipe-toolbar:area_image', ...area });
      if (this.signal.aborted) return;
      this.parts.overlay.setOpacity(Number(this.opacity.value));
      this.parts.overlay.setDifference(this.difference.checked);
      this.parts.overlay.show(image);
      this.toggle.setAttribute('aria-pressed', 'true');
      this.listenForNudges();
      this.parts.status.set(`Overlay: ${area.area_id}. Arrow keys nudge it (Shift: 10 px).`);
      this.showWhere();
    } catch (err) {
      this.parts.status.fail(err);
    }
  }

  private hideOverlay(): void {
    this.parts.overlay.hide();
    this.nudges?.abort();
    this.nudges = null;
    this.toggle.setAttribute('aria-pressed', 'false');
  }

  private nudges: AbortController | null = null;

  /** Arrow keys move the overlay while it shows, unless a field (the page's or ours) has them. */
  private listenForNudges(): void {
    if (this.nudges !== null) return;
    this.nudges = new AbortController();
    window.addEventListener(
      'keydown',
      trusted((e: KeyboardEvent) => {
        if (!this.parts.overlay.shown || e.ctrlKey || e.metaKey || e.altKey) return;
        const by = nudgeFor(e.key, e.shiftKey);
        if (by === null || takesArrows(this.keyTarget(e))) return;
        e.preventDefault();
        e.stopImmediatePropagation();
        this.parts.overlay.nudgeBy(by);
        this.showWhere();
      }),
      { capture: true, signal: AbortSignal.any([this.signal, this.nudges.signal]) },
    );
  }

  private keyTarget(e: KeyboardEvent): EventTarget | null {
    const target = e.composedPath()[0] ?? null;
    return target === this.parts.toolbarHost ? this.parts.shadow.activeElement : target;
  }

  private showWhere(): void {
    const locked = this.parts.overlay.lockedTo;
    const at = locked ? `on ${selectorFor(locked)}` : 'at the page top-left';
    this.where.textContent = `${at}, ${offsetText(this.parts.overlay.offset)}`;
  }

  /** One pick: the next click on the page chooses the element the overlay follows; Esc gives up. */
  private pickLock(): void {
    this.picking?.abort();
    const picking = new AbortController();
    this.picking = picking;
    const signal = AbortSignal.any([this.signal, picking.signal]);
    const layer = new PickLayer(this.parts.layer);
    const end = () => {
      picking.abort();
      this.parts.layer.replaceChildren();
      if (this.picking === picking) this.picking = null;
    };
    this.lockButton.setAttribute('aria-pressed', 'true');
    this.parts.status.set('Click the element the overlay should follow (Esc: cancel).');
    layer.shield.addEventListener(
      'pointermove',
      trusted((e: PointerEvent) => {
        const el = pageElementAt(e.clientX, e.clientY);
        if (el) layer.highlight(el.getBoundingClientRect(), [selectorFor(el)]);
      }),
      { signal },
    );
    layer.shield.addEventListener(
      'click',
      trusted((e: MouseEvent) => {
        const el = pageElementAt(e.clientX, e.clientY);
        end();
        if (!el) return;
        this.parts.overlay.lock(el);
        this.showWhere();
        this.parts.status.set(`The overlay follows ${selectorFor(el)}.`);
      }),
      { signal },
    );
    window.addEventListener(
      'keydown',
      trusted((e: KeyboardEvent) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopImmediatePropagation();
        end();
        this.lockButton.setAttribute('aria-pressed', String(this.parts.overlay.lockedTo !== null));
        this.parts.status.set('Ready.');
      }),
      { capture: true, signal },
    );
  }

  private unlock(): void {
    this.parts.overlay.lock(null);
    this.lockButton.setAttribute('aria-pressed', 'false');
    this.showWhere();
  }

  private async compare(): Promise<void> {
    await this.load();
    const area = this.chosenArea();
    if (area === null) {
      this.parts.status.set('Choose an idea with a captured area to compare with.', 'error');
      return;
    }
    const locked = this.parts.overlay.lockedTo;
    this.compareButton.disabled = true;
    this.parts.status.set('Comparing… (the page is rendered again in a window of its own)');
    try {
      const outcome = await send({
        type: 'xipe-toolbar:compare',
        ...area,
        ...(locked ? { selector: selectorFor(locked) } : {}),
      });
      this.results.replaceChildren(...resultNodes(outcome));
      this.parts.status.set(`Compared with ${area.area_id}: ${outcome.difference_count} differences.`, 'ok');
    } catch (err) {
      this.results.replaceChildren();
      this.parts.status.fail(err);
    } finally {
      this.compareButton.disabled = false;
    }
  }
}

/** Scores as "pixel 0.982", then the largest differences and the report's path (text only). */
export function resultNodes(outcome: CompareOutcome): HTMLElement[] {
  const scores = Object.entries(outcome.scores)
    .filter((entry): entry is [string, number] => entry[1] !== null)
    .map(([name, value]) => h('li', { 'data-score': name }, `${name} ${value.toFixed(3)}`));
  const differences = outcome.differences.map((d) => h('li', {}, d));
  return [
    h('ul', { class: 'verify-scores' }, ...scores),
    differences.length > 0
      ? h('ol', { class: 'verify-differences' }, ...differences)
      : h('div', { class: 'empty' }, 'No differences found.'),
    ...outcome.notes.map((n) => h('div', { class: 'empty' }, n)),
    h('div', { class: 'verify-report', title: outcome.report }, `Report: ${outcome.report}`),
  ];
}

/** Fields whose arrow keys are their own (the slider, a select, text). */
function takesArrows(target: EventTarget | null): boolean {
  if (target instanceof HTMLInputElement) return target.type !== 'checkbox' && target.type !== 'button';
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLElement && target.isContentEditable;
}
