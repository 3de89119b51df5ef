// `npm run bench`: every performance target of the product, measured in one run on this machine,
// with baselines where a user has an alternative. Writes bench/report.json and prints a table.
import fs from 'node:fs';
import path from 'node:path';
import { noisePng } from '../test/support/png.js';
import { benchCompareWithReference } from './compare.js';
import { benchConcurrentCaptures } from './concurrent-captures.js';
import { benchAreaCloneFidelity, benchDeepCaptureArea } from './deep-capture.js';
import { benchAreaCloneFidelityReal } from './deep-capture-real.js';
import { prepareFloor } from './floor/floor.js';
import {
  call,
  hostDescriptors,
  launchBrowser,
  makeWorkspace,
  ROOT,
  rssMb,
  startMcp,
  startPageServer,
  tempDir,
  waitForHost,
  waitForHostExit,
} from './harness.js';
import { benchHtml2canvas } from './html2canvas.js';
import { benchInject24k, scriptOfSize } from './inject.js';
import { entry, printTable, sample, timeIt, withBaseline } from './stats.js';
import { benchElementCrop, benchFullPage } from './toolbar.js';
import { benchToolbarDeepCapture } from './toolbar-deep.js';
import { benchToolbarDesigner } from './toolbar-designer.js';
import { benchFullPage9, benchIdleCpu } from './toolbar-real.js';

const QUICK = process.argv.includes('--quick');
const N = (full, quick) => (QUICK ? quick : full);
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const entries = [];
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

/** Whether `--only` (a list of name prefixes) lets the section `name` run. */
const selected = (name) => only === undefined || only.some((o) => name.startsWith(o));

async function section(name, fn) {
  if (!selected(name)) return;
  log(`${name} …`);
  try {
    await fn();
  } catch (err) {
    log(`${name} failed: ${err.stack ?? err}`);
    entries.push({
      name,
      unit: '',
      p50: null,
      p95: null,
      n: 0,
      status: `error: ${String(err.message ?? err).slice(0, 120)}`,
    });
  }
}

/** The smallest save: one colour (the `i`-th, so ids differ) into `ideaFolder`. */
function colorPayload(ideaFolder, i) {
  return {
    version: '1.0',
    source_url: 'https://example.com/',
    timestamp: new Date().toISOString(),
    idea_folder: ideaFolder,
    colors: [
      {
        id: `color-${String(i + 1).padStart(3, '0')}`,
        hex: '#112233',
        rgb: '17, 34, 51',
        hsl: '210, 50%, 13%',
        source_selector: 'body',
        context: 'bench',
      },
    ],
  };
}

const base = tempDir();
const { workspace, idea } = makeWorkspace(path.join(base, 'ws'));
const pages = await startPageServer();
// The floor's bare extension and host load only when the repeated inject is measured.
const injectFloor = selected('inject_script_24k') ? prepareFloor(base) : null;
const b = await launchBrowser({ base, workspace, floor: injectFloor });
const page = await b.browser.newPage();
await page.goto(`${pages.url}/bench`);
await page.bringToFront();
const mcp = await startMcp({ home: b.home, workspace });

const scripts = {};
for (const [name, size] of [
  ['1mib', 1024 * 1024],
  ['5mib', 5 * 1024 * 1024],
]) {
  scripts[name] = path.join(base, `script-${name}.js`);
  fs.writeFileSync(scripts[name], scriptOfSize(size));
}
const target = { url_contains: '/bench' };

for (const first of [false, true]) {
  await section(first ? 'inject_script_24k_first' : 'inject_script_24k', () =>
    benchInject24k({
      b,
      mcp,
      workspace,
      pageUrl: `${pages.url}/bench`,
      dir: base,
      entries,
      N,
      first,
      floor: injectFloor,
    }),
  );
}

for (const [key, n] of [
  ['1mib', N(10, 3)],
  ['5mib', N(5, 2)],
]) {
  await section(`inject_script_${key}`, async () => {
    let text = '';
    const samples = await sample(
      n,
      async () => {
        const { res } = await call(mcp.client, 'inject_script', { file_path: scripts[key], ...target });
        text = res.content[0].text;
      },
      { warmup: 1 },
    );
    entries.push(entry(`inject_script_${key}`, 'ms', samples, { response_bytes: Buffer.byteLength(text) }));
  });
}

/** A reference-data payload of about `bytes` bytes with PNG screenshots (base64:). */
function referencePayload(bytes, i = 0) {
  // Four screenshots; base64 inflates by 4/3, so each PNG is a quarter of the budget / 1.34.
  const b64 = `base64:${noisePng(Math.floor(bytes / 4 / 1.34), i + 1).toString('base64')}`;
  const elements = [0, 1].map((k) => ({
    id: `elem-${String(i * 2 + k + 1).padStart(3, '0')}`,
    selector: `#card-${k}`,
    tag: 'div',
    bounding_box: { x: 0, y: 0, width: 100, height: 100 },
    screenshots: { full_page: b64, element_crop: b64 },
    comment: 'bench',
    extracted_assets: [],
  }));
  return {
    version: '1.0',
    source_url: 'https://example.com/',
    timestamp: new Date().toISOString(),
    idea_folder: idea,
    elements,
  };
}

await section('save_10mib', async () => {
  const payload = referencePayload(9.8 * 1024 * 1024);
  const size = Buffer.byteLength(JSON.stringify(payload));
  const samples = await sample(N(10, 3), () => call(mcp.client, 'save_uiux_reference', payload), {
    warmup: 1,
  });
  // The floor on this machine: decoding the same base64 and writing the same bytes with plain fs
  // in one process, so the number means something on any machine.
  const floorDir = path.join(base, 'save-floor');
  fs.mkdirSync(floorDir, { recursive: true });
  const shots = payload.elements.flatMap((e) => Object.values(e.screenshots));
  const floor = await sample(
    N(10, 3),
    (run) => {
      for (const [i, value] of shots.entries())
        fs.writeFileSync(path.join(floorDir, `${run}-${i}.png`), Buffer.from(value.slice(7), 'base64'));
    },
    { warmup: 1 },
  );
  entries.push({
    ...withBaseline(
      entry('save_10mib', 'ms', samples, { payload_bytes: size, target: 'p50 ≤ 300 ms' }),
      'plain fs: decode the base64 and write the same bytes',
      floor,
    ),
  });
});

await section('concurrent_saves_100', async () => {
  const ideaDir = path.join(workspace, 'x-ipe-docs', 'ideas', '002. Concurrency');
  fs.mkdirSync(ideaDir, { recursive: true });
  const small = (i) => colorPayload('002. Concurrency', i);
  const { ms } = await timeIt(() =>
    Promise.all(Array.from({ length: 100 }, (_, i) => call(mcp.client, 'save_uiux_reference', small(i)))),
  );
  const sessions = fs.readdirSync(path.join(ideaDir, 'uiux-references', 'sessions')).sort();
  const expected = Array.from(
    { length: 100 },
    (_, i) => `ref-session-${String(i + 1).padStart(3, '0')}.json`,
  );
  const gapFree = JSON.stringify(sessions) === JSON.stringify(expected);
  entries.push({
    ...entry('concurrent_saves_100', 'ms total', [ms]),
    gap_free: gapFree,
    status: gapFree ? 'ok' : 'GAPS',
  });
});

await section('cold_start', async () => {
  const samples = await sample(
    N(10, 3),
    async () => {
      const m = await startMcp({ home: b.home, workspace });
      await call(m.client, 'list_tabs', {});
      await m.client.close();
    },
    { warmup: 1 },
  );
  entries.push(entry('cold_start', 'ms', samples, { target: '≤ 500 ms' }));
});

await section('reconnect_after_host_kill', async () => {
  const samples = [];
  for (let i = 0; i < N(5, 2); i += 1) {
    const pid = hostDescriptors(b.home)[0]?.pid;
    process.kill(pid, 'SIGKILL');
    const { ms } = await timeIt(async () => {
      for (;;) {
        const { res } = await call(mcp.client, 'list_tabs', {}, { allowError: true });
        if (!res.isError) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    samples.push(ms);
    await waitForHost(b.home);
  }
  entries.push(entry('reconnect_after_host_kill', 'ms', samples, { target: '≤ 2000 ms' }));
});

await section('reconnect_after_sw_stop', async () => {
  const samples = [];
  for (let i = 0; i < N(3, 1); i += 1) {
    const oldPid = hostDescriptors(b.home)[0]?.pid;
    const session = await page.createCDPSession();
    await session.send('ServiceWorker.enable');
    await session.send('ServiceWorker.stopAllWorkers');
    await session.detach();
    await waitForHostExit(oldPid);
    const { ms } = await timeIt(async () => {
      // The next tab event wakes the worker (a user switching or loading a tab).
      await page.reload();
      for (;;) {
        const { res } = await call(mcp.client, 'list_tabs', {}, { allowError: true });
        if (!res.isError) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    samples.push(ms);
    await waitForHost(b.home, { exceptPid: oldPid });
  }
  entries.push(
    entry('reconnect_after_sw_stop', 'ms', samples, { target: 'next tab event (or ≤ 30 s by alarm)' }),
  );
});

await section('rss', async () => {
  await new Promise((r) => setTimeout(r, 1000));
  const hostPid = hostDescriptors(b.home)[0]?.pid;
  entries.push(entry('rss_host_idle', 'MB', [rssMb(hostPid)], { target: '≤ 100 MB' }));
  // A fresh server that has answered one call: the bench's own server has held 10 MiB payloads.
  const idle = await startMcp({ home: b.home, workspace });
  await call(idle.client, 'list_tabs', {});
  await new Promise((r) => setTimeout(r, 1000));
  entries.push(entry('rss_mcp_idle', 'MB', [rssMb(idle.pid)], { target: '≤ 100 MB' }));
  await idle.client.close();
  const ideaDir = path.join(workspace, 'x-ipe-docs', 'ideas', '003. RSS');
  fs.mkdirSync(ideaDir, { recursive: true });
  for (let i = 0; i < 100; i += 1) {
    await call(mcp.client, 'save_uiux_reference', colorPayload('003. RSS', i));
  }
  // Measured once the saves have settled, like the idle entries.
  await new Promise((r) => setTimeout(r, 1000));
  entries.push(
    entry('rss_host_after_100_saves', 'MB', [rssMb(hostDescriptors(b.home)[0]?.pid)], { target: '≤ 100 MB' }),
  );
});

await section('viewport_capture_vs_html2canvas', () =>
  benchHtml2canvas({ browser: b, mcp, workspace, entries, N, entry, withBaseline, log }),
);

await section('toolbar_designer', () => benchToolbarDesigner({ browser: b, entries, entry }));
await section('toolbar_idle_page_cpu', () => benchIdleCpu({ browser: b, pages, entries, N }));
await section('element_crop', () => benchElementCrop({ browser: b, pages, entries, N, entry }));
await section('full_page_5vp', () => benchFullPage({ browser: b, pages, entries, N, entry }));

// A Retina screen: a second browser at device pixel ratio 2 (--force-device-scale-factor=2).
let retina = null;
const retinaBrowser = async () => {
  retina ??= await launchBrowser({ base, workspace, name: 'dpr2', deviceScaleFactor: 2 });
  return retina;
};
await section('element_crop_dpr2', async () =>
  benchElementCrop({ browser: await retinaBrowser(), pages, entries, N, entry, dpr: 2 }),
);
await section('full_page_9vp_dpr2', async () =>
  benchFullPage9(await retinaBrowser(), { pages, entries, N, entry }),
);
await retina?.browser.close();
await section('area_clone_fidelity', () => benchAreaCloneFidelity({ entries, entry, log }));
await section('area_clone_fidelity_real', () => benchAreaCloneFidelityReal({ entries, entry, log }));
await section('deep_capture_area', () =>
  benchDeepCaptureArea({
    browser: b.browser,
    home: b.home,
    mcp,
    call,
    workspace,
    idea,
    entries,
    N,
    entry,
    log,
  }),
);
await section('compare_with_reference', () =>
  benchCompareWithReference({ browser: b.browser, mcp, call, idea, entries, N, entry, log }),
);
await section('concurrent_captures_12', () =>
  benchConcurrentCaptures({ browser: b.browser, home: b.home, workspace, idea, entries, N, entry, log }),
);
await section('toolbar_deep_capture', () =>
  benchToolbarDeepCapture({ browser: b.browser, entries, N, entry, log }),
);

await mcp.client.close();
await b.browser.close();
await pages.close();
fs.rmSync(base, { recursive: true, force: true });

const report = {
  generated_at: new Date().toISOString(),
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
  quick: QUICK,
  entries,
};
fs.writeFileSync(path.join(ROOT, 'bench', 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
printTable(entries);
process.stdout.write(`\nreport: ${path.join(ROOT, 'bench', 'report.json')}\n`);
