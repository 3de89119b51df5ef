/**
 * The browser's own CSS initial values, as computed values, and the list of properties it
 * computes. Measured once per capture on a probe element with `all: initial`, because both change
 * between browser versions and a static table would drift.
 *
 * The probe must be rendered: an element in a `display: none` subtree reports some values
 * unresolved (`outline-width: 3px` for `medium`, where a rendered element with no outline reports
 * `0px`). It sits for one synchronous read in a closed shadow root, inside a zero-size, clipped,
 * `contain: strict` host, so it never paints and never moves anything; it is removed before the
 * capture returns to the event loop.
 */
export interface StyleBaseline {
  /** Computed longhands, custom properties excluded. */
  names: readonly string[];
  initial: ReadonlyMap<string, string>;
}

const PROBE_TAG = 'x-ipe-uiux-probe';
const HOST_STYLE =
  'all: initial; position: fixed; left: 0; top: 0; width: 0; height: 0; overflow: hidden; contain: strict; pointer-events: none;';

export function measureBaseline(doc: Document): StyleBaseline {
  const host = doc.createElement(PROBE_TAG);
  host.setAttribute('style', HOST_STYLE);
  const shadow = host.attachShadow({ mode: 'closed' });
  const probe = doc.createElement('div');
  probe.setAttribute('style', 'all: initial;');
  shadow.append(probe);
  doc.documentElement.append(host);
  try {
    const cs = getComputedStyle(probe);
    const names: string[] = [];
    const initial = new Map<string, string>();
    for (let i = 0; i < cs.length; i++) {
      const name = cs.item(i);
      if (name.startsWith('--')) continue;
      names.push(name);
      initial.set(name, cs.getPropertyValue(name));
    }
    return { names, initial };
  } finally {
    host.remove();
  }
}

export const BASELINE_PROBE_TAG = PROBE_TAG;
