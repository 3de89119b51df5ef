import { h } from './dom.js';
import { trusted } from './trusted.js';

export type StatusKind = 'info' | 'error' | 'ok';

/** The toolbar's one status line (read by screen readers): what just happened, or went wrong. */
export class StatusLine {
  readonly el = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  private bar: HTMLDivElement | null = null;

  set(text: string, kind: StatusKind = 'info'): void {
    this.el.className = `status${kind === 'info' ? '' : ` ${kind}`}`;
    this.el.textContent = text;
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
