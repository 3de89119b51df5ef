// The verify loop for `npm run bench` (`--only=compare_with_reference`): a 1280×800 area of the
// fixture site's landing page, in a 1280×800 viewport, is deep-captured, then its own clone (a workspace file the host
// serves for the call) is compared with it, call → answer through the MCP server, one call at a
// time with Chrome's capture quota (two a second) spent by the previous call already.
import fs from 'node:fs';
import { startFixtureServer } from '../test/support/deep-fixtures.js';

/** Median of each step's end (ms from the call's start at the host), from the reports' timings. */
function phaseMedians(reports) {
  const names = [...new Set(reports.flatMap((r) => Object.keys(r)))];
  const median = (v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)];
  return Object.fromEntries(
    names.map((n) => [n, median(reports.map((r) => r[n]).filter((v) => typeof v === 'number'))]),
  );
}

export async function benchCompareWithReference({ browser, mcp, call, idea, entries, N, entry, log }) {
  const server = await startFixtureServer();
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  const { windowId, bounds } = await cdp.send('Browser.getWindowForTarget');
  try {
    // The designer's viewport is 1280×800, so the area is one screen (the window's frame is added).
    const frame = await page.evaluate(() => window.outerHeight - window.innerHeight);
    await cdp.send('Browser.setWindowBounds', { windowId, bounds: { width: 1280, height: 800 + frame } });
    await page.goto(server.pageUrl('landing.html'), { waitUntil: 'load' });
    const viewport = await page.evaluate(() => `${innerWidth}×${innerHeight}`);
    if (viewport !== '1280×800') throw new Error(`expected a 1280×800 viewport, got ${viewport}`);
    await page.evaluate(() => document.fonts.ready);
    const { obj: captured } = await call(mcp.client, 'capture_area', {
      idea_folder: idea,
      rect: { x: 0, y: 0, width: 1280, height: 800 },
      url_contains: 'landing.html',
      area_id: 'area-91',
    });
    const args = { idea_folder: idea, area_id: 'area-91', file_path: captured.files.structure_html };
    await call(mcp.client, 'compare_with_reference', args); // warm-up
    const samples = [];
    const phases = [];
    let last = null;
    for (let i = 0; i < N(8, 3); i += 1) {
      await new Promise((r) => setTimeout(r, 1_100));
      const started = performance.now();
      const { obj, res } = await call(mcp.client, 'compare_with_reference', args);
      samples.push(performance.now() - started);
      last = { obj, text: res.content[0].text };
      const report = JSON.parse(fs.readFileSync(obj.files.report_json, 'utf8'));
      phases.push({ ...report.timings, answered: obj.elapsed_ms });
    }
    // Where the time goes, quietly: the steps' ends, so a step's cost is the gap to the one before.
    log(`  phases (ms from the host's start, p50) ${JSON.stringify(phaseMedians(phases))}`);
    log(`  scores ${JSON.stringify(last.obj.scores)}, ${last.obj.difference_count} differences`);
    const one = entry('compare_with_reference', 'ms', samples, {
      area: '1280×800',
      samples_ms: samples.map((v) => Math.round(v)),
      scores: last.obj.scores,
      phases_p50_ms: phaseMedians(phases),
      target: 'p50 ≤ 1000 ms',
    });
    entries.push({ ...one, status: one.p50 <= 1000 ? 'ok' : 'MISSED' });
    const bytes = Buffer.byteLength(last.text);
    entries.push({
      ...entry('compare_with_reference_result_bytes', 'bytes', [bytes]),
      target: '≤ 2048 bytes',
      status: bytes <= 2048 ? 'ok' : 'MISSED',
    });
  } finally {
    await cdp.send('Browser.setWindowBounds', { windowId, bounds }).catch(() => undefined);
    await page.close();
    await server.close();
  }
}
