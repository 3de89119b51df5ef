import type { ColorDraft, ColorRole } from '#shared/toolbar-messages.js';
import { parseHex } from '../color.js';
import { h } from '../dom.js';
import { scanPalette } from '../dom-inspect.js';
import { colorDraft } from '../drafts.js';
import { type PaletteEntry, suggestRoles } from '../palette.js';
import { trusted } from '../trusted.js';

/**
 * "Page palette": the colours in use on the page with their counts; a click adds one, with the
 * role the palette suggests. The scan is kept, so picked colours get the same suggestions.
 */
export class PaletteView {
  private palette: PaletteEntry[] | null = null;

  constructor(
    readonly el: HTMLElement,
    private readonly addColor: (draft: ColorDraft) => void,
    private readonly signal: AbortSignal,
  ) {
    const scan = h('button', { class: 'btn secondary', type: 'button' }, 'Scan page colours');
    scan.addEventListener(
      'click',
      trusted(() => this.show()),
      { signal },
    );
    el.append(scan);
  }

  /** The role the page palette suggests for a colour (scans the page the first time). */
  suggestedRole(hex: string): ColorRole {
    this.palette ??= scanPalette();
    return suggestRoles(this.palette).get(hex) ?? 'custom';
  }

  show(): void {
    const signal = this.signal;
    const palette = scanPalette();
    this.palette = palette;
    const roles = suggestRoles(palette);
    const grid = h('div', { class: 'palette' });
    for (const e of palette) {
      const uses = Object.entries(e.usage)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      const suggested = roles.get(e.hex);
      const sw = h('button', {
        class: 'swatch',
        type: 'button',
        title: `${e.hex} · used ${e.count}× (${uses})${suggested ? ` · suggested: ${suggested}` : ''}`,
        'aria-label': `Add ${e.hex}, used ${e.count} times`,
        'data-hex': e.hex,
      });
      sw.style.background = e.hex;
      sw.append(h('span', {}, String(e.count)));
      sw.addEventListener(
        'click',
        trusted(() => {
          const c = parseHex(e.hex);
          if (c)
            this.addColor(
              colorDraft(c, suggested ?? 'custom', {
                selector: e.example ?? undefined,
                context: 'page palette',
              }),
            );
        }),
        { signal },
      );
      grid.append(sw);
    }
    const rescan = h('button', { class: 'btn secondary', type: 'button' }, 'Rescan');
    rescan.addEventListener(
      'click',
      trusted(() => this.show()),
      { signal },
    );
    this.el.replaceChildren(
      grid,
      h('div', { class: 'kbd' }, `${palette.length} colours in use — click to add`),
      rescan,
    );
  }
}
