import type { CollectedElement, ElementDraft } from '#shared/toolbar-messages.js';
import { MARKER_HEIGHT } from '../../geometry/band-marker.js';
import { alignStep, planFullPage, type StitchStep } from '../../geometry/stitch-plan.js';
import type { CaptureVeil } from './capture-veil.js';
import { domRect } from './dom.js';
import { viewportInfo } from './dom-inspect.js';
import { elementDraft } from './drafts.js';
import { InlineStyles } from './inline-styles.js';
import { floatingLayers, hideLayers, settled } from './page-layers.js';
import { inTurn, send } from './runtime.js';

export interface FullPageOptions {
  veil: Pick<CaptureVeil, 'lower' | 'lift'>;
  progress(done: number, total: number, note: string): void;
  signal: AbortSignal;
}

/** Captures of one band that may come back stale (an older frame) before the shot is given up. */
const MAX_STALE_CAPTURES = 6;

/** The scroll position the page reports, rounded as the stitch plan counts rows. */
const scrollTop = (): number => Math.round(window.scrollY);

/** An element to stitch whole (taller than the viewport), instead of the full page. */
export interface StitchTarget {
  el: Element;
  selector: string;
}

/**
 * Scroll-and-stitch screenshot of the full page, or of one element taller than the viewport:
 * scroll, capture (the worker crops and stitches), next. A full page starts from the top with the
 * page's scroll handlers and their transitions settled, so a navbar that changes on scroll shows
 * as it does at the top. Every band is captured with a marker painted in the same frame as its
 * scroll (geometry/band-marker.ts). The worker answers a band once its frame is taken and checks
 * the marker behind, while the page scrolls on (capture/stitch-jobs.ts); a capture without it
 * showed another frame (an older one, or a later one), and once all are checked those bands are
 * taken again, so no band ever shows another scroll position or the toolbar. Fixed and sticky layers are hidden
 * after the first band of a full page, looked for again at every band once its scroll handlers ran
 * (a fixed header appears once, where it belongs, even one that turns fixed on scroll), and from
 * the start for an element (it shows the element, not what floats over it). Paced by the worker's
 * capture quota (2/s); the scroll position and every inline style are put back, whatever happens.
 */
export function captureFullPage(
  opts: FullPageOptions,
  target: StitchTarget | null = null,
): Promise<{ item: CollectedElement; recaptured: number }> {
  return inTurn(() => stitchInTurn(opts, target));
}

async function stitchInTurn(
  opts: FullPageOptions,
  target: StitchTarget | null,
): Promise<{ item: CollectedElement; recaptured: number }> {
  const de = document.documentElement;
  const scroller = document.scrollingElement ?? de;
  const saved = { x: window.scrollX, y: window.scrollY };
  const styles = new InlineStyles();
  styles.set(de, 'scroll-behavior', 'auto');
  /** The fixed and sticky layers of a full page, hidden after its first band. */
  const layers = new InlineStyles();
  let layersHidden = false;
  let job: string | null = null;
  let finished = false;
  let recaptured = 0;
  try {
    const vp = viewportInfo();
    let left = 0;
    let width = de.clientWidth;
    let region: { top: number; height: number } | null = null;
    let draft: ElementDraft | null = null;
    if (target) {
      const r = domRect(target.el.getBoundingClientRect());
      left = Math.min(Math.max(0, r.x), width - 1);
      width = Math.max(1, Math.min(r.x + r.width, width) - left);
      region = { top: r.y + window.scrollY, height: r.height };
      draft = elementDraft(target.el, 'element', r, target.selector);
      hideLayers(
        floatingLayers().filter((layer) => !layer.contains(target.el)),
        styles,
      );
    } else {
      window.scrollTo({ left: 0, top: 0, behavior: 'instant' });
      await settled(opts.signal);
    }
    const plan = planFullPage(
      {
        scrollHeight: scroller.scrollHeight,
        viewportWidth: width,
        viewportHeight: de.clientHeight,
        devicePixelRatio: vp.dpr,
      },
      { markerHeight: MARKER_HEIGHT, region },
    );
    const jobId = (
      await send({
        type: 'xipe-toolbar:full_page_begin',
        width: plan.width,
        height: plan.height,
        viewport: vp,
        left,
      })
    ).job;
    job = jobId;
    // Consecutive bands get different codes, so a frame of the band before never passes.
    const firstCode = Math.floor(Math.random() * 256);
    const total = plan.steps.length;
    const note = plan.capped ? `(cut at ${plan.height}px)` : '';
    const shoot = async (i: number, step: StitchStep) => {
      if (opts.signal.aborted) throw new Error('Full-page capture cancelled.');
      window.scrollTo({ left: 0, top: step.scrollY, behavior: 'instant' });
      if (!target && i === 0 && layersHidden) {
        // The first band again: with the fixed layers, as they show at the top.
        layers.restore();
        layersHidden = false;
        await settled(opts.signal);
      } else if (!target && i > 0) {
        // After the page's scroll handlers have run: a header that turns fixed only once the page
        // scrolls is not fixed yet right after scrollTo, and was then repeated over every later
        // band. Each band looks again, for layers that turned fixed further down.
        await settled(opts.signal);
        hideLayers(floatingLayers(), layers);
        layersHidden = true;
      }
      await captureBand(jobId, step, i, plan.top, (firstCode + i) & 0xff, vp, opts);
      opts.veil.lift();
    };
    for (const [i, step] of plan.steps.entries()) {
      opts.progress(i, total, note);
      await shoot(i, step);
    }
    // The worker checks each band's marker behind its answer: the bands it found stale are
    // taken again (at most MAX_STALE_CAPTURES captures of a band in all).
    const tries = plan.steps.map(() => 1);
    for (;;) {
      opts.progress(total, total, 'checking…');
      const { stale } = await send({ type: 'xipe-toolbar:full_page_settle', job: jobId });
      if (stale.length === 0) break;
      for (const i of stale) {
        const step = plan.steps[i];
        const tried = (tries[i] ?? MAX_STALE_CAPTURES) + 1;
        if (!step || tried > MAX_STALE_CAPTURES || opts.signal.aborted)
          throw new Error(
            'The page did not finish painting while the full page was captured (the browser kept showing an older frame). Try again.',
          );
        tries[i] = tried;
        recaptured += 1;
        opts.progress(total, total, `taking band ${i + 1} again…`);
        await shoot(i, step);
      }
    }
    opts.progress(total, total, 'encoding…');
    const capped = plan.capped ? { capped_at: plan.height } : {};
    const item = await send({
      type: 'xipe-toolbar:full_page_end',
      job: jobId,
      draft: draft
        ? { ...draft, ...capped }
        : {
            kind: 'full_page',
            selector: 'html',
            tag: 'html',
            bounding_box: { x: 0, y: 0, width: plan.width, height: plan.height },
            page_url: location.href,
            ...capped,
          },
    });
    finished = true;
    if (!item) throw new Error('The full-page capture produced no image.');
    return { item, recaptured };
  } finally {
    opts.veil.lift();
    layers.restore();
    styles.restore();
    window.scrollTo({ left: saved.x, top: saved.y, behavior: 'instant' });
    if (!finished && job !== null)
      void send({ type: 'xipe-toolbar:full_page_end', job }).catch(() => undefined);
  }
}

/**
 * Paints one band's marker with the toolbar hidden and has the worker capture it. The worker
 * answers once the frame is taken and checks the marker behind (`full_page_settle` lists the bands
 * whose capture showed another frame).
 */
async function captureBand(
  job: string,
  step: StitchStep,
  index: number,
  top: number,
  code: number,
  viewport: ReturnType<typeof viewportInfo>,
  opts: FullPageOptions,
): Promise<void> {
  const marker = step.markerY === null ? null : { y: step.markerY, code };
  await opts.veil.lower(null, { marker });
  const band = alignStep(step, scrollTop(), document.documentElement.clientHeight, MARKER_HEIGHT, top);
  if (!band)
    throw new Error('The page would not scroll to where the next band is; the full-page shot was stopped.');
  // Without a marker (a viewport too short for one) the worker stitches what it captures.
  await send({
    type: 'xipe-toolbar:full_page_band',
    job,
    src_y: band.srcY,
    height: band.height,
    dest_y: band.destY,
    viewport,
    ...(marker ? { marker, step: index } : {}),
  });
}
