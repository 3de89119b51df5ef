import type { CollectedElement } from '../../../../shared/src/toolbar-messages.js';
import { alignStep, planFullPage } from '../../geometry/stitch-plan.js';
import { afterPaint, HOST_TAG, viewportInfo } from './dom-inspect.js';
import { send } from './runtime.js';

export interface FullPageOptions {
  hideUi(hidden: boolean): void;
  progress(done: number, total: number, note: string): void;
  signal: AbortSignal;
}

/**
 * Hides fixed and sticky elements (after the first band, so a sticky header appears once, where
 * it belongs) and returns a function that puts every one back exactly as it was.
 */
function hideFloating(): () => void {
  const changed: { el: HTMLElement; value: string; priority: string }[] = [];
  const all = document.body ? document.body.querySelectorAll<HTMLElement>('*') : [];
  for (const el of Array.from(all)) {
    if (el.localName === HOST_TAG) continue;
    const pos = getComputedStyle(el).position;
    if (pos !== 'fixed' && pos !== 'sticky') continue;
    changed.push({
      el,
      value: el.style.getPropertyValue('visibility'),
      priority: el.style.getPropertyPriority('visibility'),
    });
    el.style.setProperty('visibility', 'hidden', 'important');
  }
  return () => {
    for (const { el, value, priority } of changed) {
      if (value) el.style.setProperty('visibility', value, priority);
      else el.style.removeProperty('visibility');
    }
  };
}

/**
 * Scroll-and-stitch full-page screenshot: scroll, capture (the worker crops and stitches), next.
 * Paced by the worker's capture quota (2/s); the scroll position is restored whatever happens.
 */
export async function captureFullPage(opts: FullPageOptions): Promise<CollectedElement> {
  const de = document.documentElement;
  const scrollHeight = Math.max(de.scrollHeight, document.body?.scrollHeight ?? 0);
  const vp = viewportInfo();
  const plan = planFullPage({
    scrollHeight,
    viewportWidth: de.clientWidth,
    viewportHeight: de.clientHeight,
    devicePixelRatio: vp.dpr,
  });
  const saved = { x: window.scrollX, y: window.scrollY };
  const rootBehavior = de.style.getPropertyValue('scroll-behavior');
  de.style.setProperty('scroll-behavior', 'auto', 'important');
  let restoreFloating: (() => void) | null = null;
  // Asked for while the first band is being painted.
  const begun = send({
    type: 'xipe-toolbar:full_page_begin',
    width: plan.width,
    height: plan.height,
    viewport: vp,
  });
  // Awaited below; this only keeps an early failure from being reported as unhandled meanwhile.
  begun.catch(() => undefined);
  let job: string | null = null;
  let finished = false;
  try {
    for (const [i, step] of plan.steps.entries()) {
      if (opts.signal.aborted) throw new Error('Full-page capture cancelled.');
      opts.progress(i, plan.steps.length, plan.capped ? `(cut at ${plan.height}px)` : '');
      window.scrollTo({ left: 0, top: step.scrollY, behavior: 'instant' });
      if (i === 1) restoreFloating = hideFloating();
      opts.hideUi(true);
      await afterPaint();
      job ??= (await begun).job;
      const band = alignStep(step, window.scrollY, de.clientHeight);
      if (!band)
        throw new Error(
          'The page would not scroll to where the next band is; the full-page shot was stopped.',
        );
      await send({
        type: 'xipe-toolbar:full_page_band',
        job,
        src_y: band.srcY,
        height: band.height,
        dest_y: band.destY,
        viewport: vp,
      });
      opts.hideUi(false);
    }
    opts.progress(plan.steps.length, plan.steps.length, 'encoding…');
    const item = await send({
      type: 'xipe-toolbar:full_page_end',
      job: job ?? (await begun).job,
      draft: {
        kind: 'full_page',
        selector: 'html',
        tag: 'html',
        bounding_box: { x: 0, y: 0, width: plan.width, height: plan.height },
        page_url: location.href,
        ...(plan.capped ? { capped_at: plan.height } : {}),
      },
    });
    finished = true;
    if (!item) throw new Error('The full-page capture produced no image.');
    return item;
  } finally {
    opts.hideUi(false);
    restoreFloating?.();
    if (rootBehavior) de.style.setProperty('scroll-behavior', rootBehavior);
    else de.style.removeProperty('scroll-behavior');
    window.scrollTo({ left: saved.x, top: saved.y, behavior: 'instant' });
    if (!finished) {
      void begun
        .then(({ job: started }) => send({ type: 'xipe-toolbar:full_page_end', job: started }))
        .catch(() => undefined);
    }
  }
}
