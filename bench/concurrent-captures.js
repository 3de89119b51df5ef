// `concurrent_captures_12` for `npm run bench`: three agents (three MCP servers) ask for 12 mixed
// captures at once — deep areas, element crops and full pages — in two tabs of one window and one
// tab of a second window. Captures that need one window's screen take turns in the extension's
// queue, other windows run beside them: the whole burst must take at most 1.3× the same 12
// captures made one after another, and every call must succeed.
import { startFixtureServer } from '../test/support/deep-fixtures.js';
import { call, startMcp } from './harness.js';
import { timeIt } from './stats.js';

/** The 12 calls: [agent, tool, arguments] (the tab by its URL's `tab=` query). */
function burst(idea, ids) {
  const area = (agent, tab, selector) => [
    agent,
    'capture_area',
    { idea_folder: idea, selector, tab_id: ids[tab] },
  ];
  const shot = (agent, tab, mode, selector) => [
    agent,
    'capture_screenshot',
    { idea_folder: idea, mode, tab_id: ids[tab], ...(selector ? { selector } : {}) },
  ];
  return [
    area(0, 'a', '.hero'),
    area(1, 'b', '.site-header'),
    shot(2, 'a', 'full_page'),
    area(0, 'a', '.features'),
    shot(1, 'c', 'full_page'),
    shot(2, 'b', 'element', '.features .feature'),
    shot(0, 'c', 'element', '.stats'),
    area(1, 'b', '.pricing'),
    shot(2, 'b', 'full_page'),
    area(0, 'a', '.pricing'),
    shot(1, 'a', 'element', '.hero .eyebrow'),
    area(2, 'c', '.stats'),
  ];
}

/** Opens `url` in a new tab of the first window (`newWindow` false) or in a window of its own. */
async function openTab(browser, url, newWindow) {
  const session = await browser.target().createCDPSession();
  try {
    await session.send('Target.createTarget', { url, newWindow });
  } finally {
    await session.detach();
  }
  const target = await browser.waitForTarget((t) => t.url() === url);
  const page = await target.page();
  await page.waitForFunction(() => document.readyState === 'complete' && document.fonts.status === 'loaded');
  return page;
}

export async function benchConcurrentCaptures({ browser, home, workspace, idea, entries, N, entry, log }) {
  const server = await startFixtureServer();
  const agents = await Promise.all([0, 1, 2].map(() => startMcp({ home, workspace })));
  try {
    await openTab(browser, server.pageUrl('landing.html?tab=a'), false);
    await openTab(browser, server.pageUrl('landing.html?tab=b'), false);
    await openTab(browser, server.pageUrl('dashboard.html?tab=c'), true);
    const { obj } = await call(agents[0].client, 'list_tabs', {});
    const windowOf = (tab) => obj.tabs.find((t) => t.url.includes(`tab=${tab}`))?.window_id;
    const layout = { a: windowOf('a'), b: windowOf('b'), c: windowOf('c') };
    // url_contains looks at origin and path only, and a and b show the same page: by tab id.
    const idOf = (tab) => obj.tabs.find((t) => t.url.includes(`tab=${tab}`))?.tab_id;
    const ids = { a: idOf('a'), b: idOf('b'), c: idOf('c') };
    log(`  windows: ${JSON.stringify(layout)}, tabs: ${JSON.stringify(ids)}`);
    const calls = burst(idea, ids);
    const run = (agent, tool, args) => call(agents[agent].client, tool, args, { allowError: true });
    const failures = (outcomes) =>
      outcomes
        .filter(({ res }) => res.isError)
        .map(({ obj: o, res }) => `${o?.error}: ${o?.message ?? res.content?.[0]?.text}`);
    // A warm-up of each call (engine bundle, HTTP cache), one after another.
    for (const [agent, tool, args] of calls) await run(agent, tool, args);
    const sequential = [];
    const concurrent = [];
    const errors = [];
    for (let round = 0; round < N(3, 1); round += 1) {
      const one = await timeIt(async () => {
        const outcomes = [];
        for (const [agent, tool, args] of calls) outcomes.push(await run(agent, tool, args));
        return outcomes;
      });
      sequential.push(one.ms);
      errors.push(...failures(one.value));
      // Chrome's capture quota counts the last second: start the burst on a fresh one.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const all = await timeIt(() => Promise.all(calls.map(([agent, tool, args]) => run(agent, tool, args))));
      concurrent.push(all.ms);
      const failed = failures(all.value);
      errors.push(...failed);
      const waited = all.value.map(({ obj: o }) => o.queued_ms ?? 0);
      log(
        `  round ${round + 1}: one after another ${Math.round(one.ms)} ms, at once ${Math.round(all.ms)} ms ` +
          `(${failed.length} failed; longest wait in the queue ${Math.max(...waited)} ms)`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
    if (errors.length > 0) log(`  failed calls' errors: ${JSON.stringify([...new Set(errors.map(String))])}`);
    const pairs = concurrent.map((ms, i) => ms / sequential[i]);
    const worst = Math.max(...pairs);
    const ours = entry('concurrent_captures_12', 'ms total', concurrent);
    const baseline = entry('', '', sequential);
    entries.push({
      ...ours,
      baseline: { name: 'the same 12 calls one after another', p50: baseline.p50, p95: baseline.p95 },
      ratio_p50: Math.round((ours.p50 / baseline.p50) * 1000) / 1000,
      ratio_per_round: pairs.map((r) => Math.round(r * 1000) / 1000),
      windows: layout,
      failed_calls: errors.length,
      target: 'total ≤ 1.3 × the calls one after another, every call succeeds',
      status: worst <= 1.3 && errors.length === 0 ? 'ok' : 'MISSED',
    });
  } finally {
    await Promise.all(agents.map((a) => a.client.close()));
    await server.close();
  }
}
