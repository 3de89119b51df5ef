import { h } from './dom.js';
import { trusted } from './trusted.js';

export type StatusKind = 'info' | 'error' | 'ok';

/** The toolbar's one status line (read by screen readers): what just happened, or went wrong. */
export class StatusLine {
  readonly el = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  private bar: HTMLDivElement | null = null;
  /** Bumped by every change, so a passing message restores only what it replaced. */
  private version = 0;

  set(text: string, kind: StatusKind = 'info'): void {
    this.version++;
    this.el.className = `status${kind === 'info' ? '' : ` ${kind}`}`;
    this.el.textContent = text;
  }

  /**
   * A confirmation that passes ("Note saved."): shown for `ms`, then what it replaced comes back,
   * unless something else was said meanwhile. A note saved as the designer clicks a mode button
   * no longer wipes that mode's hint.
   */
  flash(text: string, kind: StatusKind = 'ok', ms = 1500): void {
    const className = this.el.className;
    const children = [...this.el.childNodes];
    this.set(text, kind);
    const shown = this.version;
    setTimeout(() => {
      if (this.version !== shown || !this.el.isConnected) return;
      this.version++;
      this.el.className = className;
      this.el.replaceChildren(...children);
    }, ms);
  }

  /** Text with one button after it (`data-action` = `name`), e.g. an offer to do more. */
  offer(text: string, kind: StatusKind, action: { name: string; label: string; run(): void }): void {
    this.set(text, kind);
    const button = h('button', { class: 'link', type: 'button', 'data-action': action.name }, action.label);
    button.addEventListener(
      'click',
      trusted(() => action.run()),
      { once: true },
    );
    this.el.append(' ', button);
  }

  fail(err: unknown): void {
    this.set(err instanceof Error ? err.message : String(err), 'error');
  }

  /** Text with a progress bar under it; the bar animates on while one job reports (fraction 0–1). */
  progress(text: string, fraction: number): void {
    if (!this.bar?.isConnected) this.bar = h('div', { class: 'progress' }, h('div'));
    const bar = this.bar;
    this.set(text);
    const fill = bar.firstElementChild as HTMLElement | null;
    if (fill) fill.style.width = `${Math.round(fraction * 100)}%`;
    this.el.append(bar);
  }
}
