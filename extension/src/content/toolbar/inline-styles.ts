/**
 * Inline style changes made for the moment of a capture (hiding fixed layers, turning smooth
 * scrolling off) that leave no trace: each property goes back to its value and priority, and an
 * element that had no `style` attribute gets none back — not an empty `style=""`.
 */
export class InlineStyles {
  private readonly changes: {
    el: HTMLElement | SVGElement;
    prop: string;
    value: string;
    priority: string;
    hadAttribute: boolean;
  }[] = [];

  /** Sets `prop` to `value !important` on `el`, remembering what was there. */
  set(el: HTMLElement | SVGElement, prop: string, value: string): void {
    this.changes.push({
      el,
      prop,
      value: el.style.getPropertyValue(prop),
      priority: el.style.getPropertyPriority(prop),
      hadAttribute: el.hasAttribute('style'),
    });
    el.style.setProperty(prop, value, 'important');
  }

  get size(): number {
    return this.changes.length;
  }

  /** Puts everything back, last change first. */
  restore(): void {
    for (const c of this.changes.splice(0).reverse()) {
      if (c.value) c.el.style.setProperty(c.prop, c.value, c.priority);
      else c.el.style.removeProperty(c.prop);
      if (!c.hadAttribute && c.el.getAttribute('style') === '') c.el.removeAttribute('style');
    }
  }
}
