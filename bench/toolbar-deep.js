// The toolbar's deep capture for `npm run bench`, driven like a designer: Area
// mode (Deep capture is on by default there), a rectangle dragged over the catalogue fixture's
// product grid (what `deep_capture_area` captures by selector; here only what the viewport shows),
// Enter, then Save. Timed on the bench's clock with the toolbar's DOM polled through CDP every
// 10 ms, so each time includes up to one poll and one CDP round trip:
//   toolbar_deep_capture — Enter → the panel shows the area's counts: the crop, the engine's
//                          reading, the pixel cuts and every font and image fetched and staged
//                          in extension storage (what Save needs, whatever the page does next);
//                          `item_shown_p50`: Enter → the item's thumbnail (its plain part);
//   toolbar_deep_save    — Save → "Saved session": the host's save_area for the staged area (its
//                          capture and files asked from the worker, judged and written), then the
//                          session with its crop.
import { startFixtureServer } from '../test/support/deep-fixtures.js';
import { QUOTA_WINDOW_MS, sleep, Toolbar, waitFor } from './toolbar.js';

const POLL_MS = 10;

/** Matches of `selector` in the toolbar (the document is read afresh: Toolbar.query renews node ids). */
async function count(ui, selector) {
  const { root } = await ui.session.send('DOM.getDocument', { depth: -1, pierce: true });
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node.localName === 'x-ipe-uiux-toolbar') {
      const shadow = node.shadowRoots?.[0]?.nodeId;
      if (shadow === undefined) return 0;
      const { nodeIds } = await ui.session.send('DOM.querySelectorAll', { nodeId: shadow, selector });
      return nodeIds.length;
    }
    stack.push(...(node.children ?? []), ...(node.shadowRoots ?? []));
  }
  return 0;
}

/** Ms until `probe` holds, polling; throws with the toolbar's status if it reports an error. */
async function until(ui, what, probe) {
  const start = Date.now();
  await waitFor(
    what,
    async () => {
      if ((await count(ui, '.status.error')) > 0) throw new Error(`toolbar: ${await ui.text('.status')}`);
      return probe();
    },
    120_000,
    POLL_MS,
  );
  return Date.now() - start;
}

export async function benchToolbarDeepCapture({ browser, entries, N, entry, log }) {
  const server = await startFixtureServer();
  const page = await browser.newPage();
  let ui = null;
  try {
    await page.goto(server.pageUrl('catalog.html'), { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);
    ui = await Toolbar.open(browser, page);
    await waitFor('the idea list', async () => (await count(ui, '.save option[value]:not([disabled])')) > 0);
    const area = await page.evaluate(() => {
      const r = document.querySelector('.product-grid')?.getBoundingClientRect();
      if (!r) throw new Error('no .product-grid');
      return { x: r.x, y: r.y, width: r.width, height: Math.min(r.bottom, innerHeight - 4) - r.y };
    });
    const items = [];
    const captures = [];
    const saves = [];
    let counts = '';
    const warmup = 1;
    for (let i = 0; i < warmup + N(6, 2); i += 1) {
      const mode = await ui.center('[data-mode="area"]');
      await page.mouse.click(mode.x, mode.y);
      await waitFor(
        'area mode',
        async () => (await count(ui, '.options:not([hidden]) .deep-toggle:checked')) > 0,
      );
      await page.mouse.move(area.x, area.y);
      await page.mouse.down();
      await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2, { steps: 3 });
      await page.mouse.move(area.x + area.width, area.y + area.height, { steps: 3 });
      await page.mouse.up();
      await sleep(QUOTA_WINDOW_MS);
      await page.keyboard.press('Enter');
      const pressed = Date.now();
      await until(ui, 'the item', async () =>
        (await count(ui, '.list .item .thumb[style*="background-image"]')) === 1 ? true : null,
      );
      const shown = Date.now() - pressed;
      await until(ui, 'the deep counts', async () =>
        (await count(ui, '.list .item .deep:not([aria-busy])')) === 1 ? true : null,
      );
      const captured = Date.now() - pressed;
      counts = await ui.text('.list .item .deep');
      const save = await ui.center('.save .row .btn:not(.secondary)');
      await page.mouse.click(save.x, save.y);
      const saved = await until(ui, 'the save', async () => /^Saved session/.test(await ui.text('.status')));
      if (i >= warmup) {
        items.push(shown);
        captures.push(captured);
        saves.push(saved);
      }
    }
    log(`  ${counts}`);
    const [, elements, resources] = /(\d+) elements · (\d+) resources/.exec(counts) ?? [];
    const extra = { elements: Number(elements), resources: Number(resources) };
    entries.push(
      entry('toolbar_deep_capture', 'ms', captures, {
        ...extra,
        target: 'information (capture_area target: p50 ≤ 1500 ms)',
        item_shown_p50: entry('', '', items).p50,
        note: 'Enter → counts in the panel: crop, engine, fonts and images staged in extension storage (item_shown: its thumbnail)',
      }),
      entry('toolbar_deep_save', 'ms', saves, {
        ...extra,
        target: 'information',
        note: 'Save → saved: save_area from what was staged, then the session',
      }),
    );
  } finally {
    await ui?.detach();
    await page.close();
    await server.close();
  }
}
