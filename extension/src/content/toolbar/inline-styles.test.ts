// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { InlineStyles } from './inline-styles.js';

describe('InlineStyles', () => {
  it('leaves no style attribute on an element that had none', () => {
    const el = document.createElement('nav');
    const styles = new InlineStyles();
    styles.set(el, 'visibility', 'hidden');
    styles.set(el, 'transition', 'none');
    expect(el.style.getPropertyPriority('visibility')).toBe('important');
    styles.restore();
    expect(el.hasAttribute('style')).toBe(false);
  });

  it('puts back values and priorities, and keeps what the page set meanwhile', () => {
    const el = document.createElement('div');
    el.setAttribute('style', 'visibility: visible !important; color: red');
    const styles = new InlineStyles();
    styles.set(el, 'visibility', 'hidden');
    el.style.setProperty('padding', '4px');
    styles.restore();
    expect(el.style.getPropertyValue('visibility')).toBe('visible');
    expect(el.style.getPropertyPriority('visibility')).toBe('important');
    expect(el.style.getPropertyValue('color')).toBe('red');
    expect(el.style.getPropertyValue('padding')).toBe('4px');
    expect(styles.size).toBe(0);
  });
});
