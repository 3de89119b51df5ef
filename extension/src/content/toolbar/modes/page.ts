import { sizeLabel } from '../capture-report.js';
import { captureFullPage } from '../full-page.js';
import { ICONS } from '../icons.js';
import type { ToolbarMode } from './mode.js';

/**
 * Full page (P): scroll-and-stitch shot with progress (full-page.ts does the scrolling; the worker
 * stitches). One run: it ends by itself, and Esc does not stop it halfway.
 */
export const pageMode: ToolbarMode = {
  name: 'page',
  label: 'Full page',
  key: 'p',
  icon: ICONS.page,
  hint: 'Capturing the full page…',
  kind: 'run',
  async enter(ctx) {
    const started = performance.now();
    try {
      const { item, recaptured } = await ctx.exclusive(() =>
        captureFullPage({
          veil: ctx.veil,
          progress: (done, total, note) => ctx.progress(`Full page: ${done}/${total} ${note}`, done / total),
          signal: ctx.signal,
        }),
      );
      ctx.added(item);
      const cut = item.capped_at ? ` The page is taller than ${item.capped_at}px; the shot stops there.` : '';
      const ms = Math.round(performance.now() - started);
      const size = sizeLabel(item);
      // Said so a slow page is not mistaken for a slow toolbar.
      const again =
        recaptured > 0
          ? ` ${recaptured} capture(s) came before the page had painted and were taken again.`
          : '';
      ctx.setStatus(`Full page captured (${size}) in ${ms} ms.${cut}${again}`, 'ok');
    } catch (err) {
      ctx.fail(err);
    } finally {
      ctx.finish();
    }
    return undefined;
  },
};
