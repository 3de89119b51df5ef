import type { CssRect } from '#shared/toolbar-messages.js';
import { intersect } from '../../geometry/crop-math.js';

/** DOM helpers shared by the toolbar's panel, views and modes. */

type Attrs = Record<string, string | number | boolean | undefined>;

/** Minimal element builder: text only ever goes in through textContent. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

export function iconButton(icon: string, label: string, cls = 'icon'): HTMLButtonElement {
  const b = h('button', { class: cls, type: 'button', title: label, 'aria-label': label });
  b.innerHTML = icon; // static SVG from icons.ts
  return b;
}

const round = (v: number): number => Math.round(v * 100) / 100;

/** A viewport rectangle in page coordinates (what `bounding_box` records). */
export function toPageBox(r: CssRect): CssRect {
  return {
    x: round(r.x + window.scrollX),
    y: round(r.y + window.scrollY),
    width: round(r.width),
    height: round(r.height),
  };
}

export function domRect(r: DOMRect): CssRect {
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}

/** Positions a fixed overlay element over a viewport rectangle. */
export function place(el: HTMLElement, r: CssRect): void {
  el.style.left = `${r.x}px`;
  el.style.top = `${r.y}px`;
  el.style.width = `${r.width}px`;
  el.style.height = `${r.height}px`;
}

/** The part of a viewport rectangle inside the viewport (what a crop of it can show). */
export function visiblePart(rect: CssRect): CssRect | null {
  return intersect(rect, { x: 0, y: 0, width: window.innerWidth, height: window.innerHeight });
}
