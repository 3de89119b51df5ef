import { afterPaint } from '../toolbar/dom-inspect.js';
import { InlineStyles } from '../toolbar/inline-styles.js';
import { floatingLayers, hideLayers, settled } from '../toolbar/page-layers.js';

/**
 * The floating layers of an area's screenshot bands, by the toolbar's full-page rule
 * (toolbar/page-layers.ts): every band after the first is shot with the page's fixed and sticky
 * layers hidden, looked for again once that band's scroll handlers have run — a navbar, a veil or
 * a button that turns fixed on scroll shows once, in the first band, as the page shows it, and is
 * not repeated over the rest. They are made transparent, not hidden, so focus stays where it was.
 */
export interface BandLayersApi {
  /** Hides the layers showing now, once the page has settled and before the band is shot. */
  hide(): Promise<number>;
  /** Puts back every inline style `hide` changed; false when there was none. */
  restore(): boolean;
}

export function bandLayers(): BandLayersApi {
  const styles = new InlineStyles();
  return {
    async hide() {
      await settled();
      const layers = floatingLayers();
      hideLayers(layers, styles, { transparent: true });
      await afterPaint();
      return layers.length;
    },
    restore() {
      const changed = styles.size > 0;
      styles.restore();
      return changed;
    },
  };
}
