import { COLOR_ROLES } from '#shared/design-tokens.js';
import type { CollectedColor, ColorRole } from '#shared/toolbar-messages.js';
import { contrastRatio, parseHex, wcagRating } from '../color.js';
import { h, iconButton } from '../dom.js';
import { ICONS } from '../icons.js';
import { trusted } from '../trusted.js';
import { otherPage } from './elements-view.js';

export interface ColorActions {
  role(key: string, role: ColorRole): void;
  remove(key: string): void;
}

/**
 * The "Colours" list: swatch, hex/hsl/rgb, the contrast measured when it was picked and a role
 * selector; under it, the WCAG contrast of every text/background pair the designer assigned.
 */
export function renderColors(
  container: HTMLElement,
  colors: CollectedColor[],
  actions: ColorActions,
  signal: AbortSignal,
): void {
  container.replaceChildren();
  if (colors.length === 0) {
    container.append(h('div', { class: 'empty' }, 'No colours yet — use Colour (C) or the palette.'));
    return;
  }
  for (const c of colors) {
    const role = h('select', { class: 'role', 'aria-label': `Role of ${c.hex}` });
    for (const r of COLOR_ROLES) role.append(h('option', { value: r, selected: r === c.role }, r));
    role.addEventListener(
      'change',
      trusted(() => actions.role(c.key, role.value as ColorRole)),
      { signal },
    );
    const remove = iconButton(ICONS.remove, 'Remove');
    remove.addEventListener(
      'click',
      trusted(() => actions.remove(c.key)),
      { signal },
    );
    const dot = h('span', { class: 'dot' });
    dot.style.background = c.hex;
    const sub = c.contrast
      ? `${c.rgb} · ${c.contrast.ratio.toFixed(2)}:1 ${c.contrast.rating} vs ${c.contrast.against}`
      : c.rgb;
    container.append(
      h(
        'div',
        { class: 'item', 'data-key': c.key },
        h('div', { class: 'chip' }, dot),
        h(
          'div',
          { class: 'meta' },
          h('div', { class: 'sel' }, `${c.hex}  hsl(${c.hsl})`),
          h('div', { class: 'sub' }, sub),
          ...fromLine(c.page_url),
          role,
        ),
        h('div', { class: 'actions' }, remove),
      ),
    );
  }
  const pairs = contrastPairs(colors);
  if (pairs) container.append(pairs);
}

/** "from host/path" for a colour picked on another page (as the elements list says it). */
function fromLine(pageUrl: string): HTMLElement[] {
  const from = otherPage(pageUrl);
  return from ? [h('div', { class: 'sub from', title: pageUrl }, `from ${from}`)] : [];
}

/** WCAG contrast for every text/background pair, or null when there is no such pair. */
function contrastPairs(colors: CollectedColor[]): HTMLElement | null {
  const texts = colors.filter((c) => c.role === 'text');
  const bgs = colors.filter((c) => c.role === 'background');
  if (texts.length === 0 || bgs.length === 0) return null;
  const box = h('div', { class: 'contrast' });
  for (const t of texts)
    for (const b of bgs) {
      const ft = parseHex(t.hex);
      const fb = parseHex(b.hex);
      if (!ft || !fb) continue;
      const ratio = contrastRatio(ft, fb);
      box.append(h('div', {}, `${t.hex} on ${b.hex}: ${ratio.toFixed(2)}:1 — ${wcagRating(ratio)}`));
    }
  return box;
}
