// Deep capture for `npm run bench`: `area_clone_fidelity` — every area of the fixture site
// (test/support/deep-fixtures.js) captured by the engine through the extension, its clone written
// to disk and rendered offline with every request refused, compared with the browser's own
// screenshot of the area (share of pixels within 8/255 per channel). The same areas captured
// SingleFile-style (every computed value on every node, no reset) are the baseline: what the
// style reduction costs in fidelity, and what it saves in bytes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '../test/support/chromium.js';
import { measureArea, median } from '../test/support/deep-capture.js';
import { AREAS, startFixtureServer } from '../test/support/deep-fixtures.js';

const round = (v, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;
const bytesOf = (written) => fs.statSync(written.htmlPath).size + fs.statSync(written.cssPath).size;

export async function benchAreaCloneFidelity({ entries, entry, log }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-bench-deep-'));
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const server = await startFixtureServer();
  const browser = await launchChromium({
    userDataDir: path.join(root, 'profile'),
    env: { ...process.env, HOME: home },
    installHost: false,
    windowSize: '1280,1000',
  });
  try {
    const scratch = await browser.newPage();
    const ours = [];
    const theirs = [];
    for (const area of AREAS) {
      const reduced = await measureArea({ browser, scratch, server, area, dir: path.join(root, area.name) });
      const baseline = await measureArea({
        browser,
        scratch,
        server,
        area,
        dir: path.join(root, `${area.name}-baseline`),
        reduce: false,
      });
      log(`  ${area.name}: ${round(reduced.share)} (baseline ${round(baseline.share)})`);
      ours.push({ area: area.name, result: reduced, bytes: bytesOf(reduced.written) });
      theirs.push({ area: area.name, result: baseline, bytes: bytesOf(baseline.written) });
    }
    const shares = ours.map((o) => o.result.share);
    const baselineShares = theirs.map((t) => t.result.share);
    const med = median(shares);
    const min = Math.min(...shares);
    entries.push({
      ...entry('area_clone_fidelity', 'share of pixels', shares),
      p50: round(med),
      min: round(min),
      per_area: Object.fromEntries(ours.map((o) => [o.area, round(o.result.share)])),
      baseline: {
        name: 'SingleFile-style: computed style on every node',
        p50: round(median(baselineShares)),
        min: round(Math.min(...baselineShares)),
      },
      ratio_p50: round(med / median(baselineShares)),
      tolerance: '8/255 per channel',
      target: 'median ≥ 0.97, every area ≥ 0.90',
      status: med >= 0.97 && min >= 0.9 ? 'ok' : 'MISSED',
    });
    const kb = (list) => list.map((x) => x.bytes / 1024);
    entries.push({
      ...entry('area_clone_kb', 'KB (html + css)', kb(ours)),
      baseline: {
        name: 'SingleFile-style',
        p50: round(median(kb(theirs)), 1),
        p95: null,
      },
      ratio_p50: round(median(kb(ours)) / median(kb(theirs)), 3),
      target: 'information',
    });
    entries.push(
      entry(
        'area_capture_kb',
        'KB (engine output JSON)',
        ours.map((o) => Buffer.byteLength(JSON.stringify(o.result.capture)) / 1024),
        { target: 'information: referenced-elements.json per area comes from it' },
      ),
    );
    entries.push(
      entry(
        'deep_capture_engine',
        'ms (in the page)',
        ours.map((o) => o.result.capture.diagnostics.elapsed_ms),
        {
          elements_p50: median(ours.map((o) => o.result.capture.nodes.length)),
          target: 'information: deep_capture_area (press → files) p50 ≤ 1.5 s comes with capture_area',
        },
      ),
    );
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
