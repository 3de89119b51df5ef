import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MergedReferenceData, ReferenceData } from '#shared/reference-data.js';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { McpSession, type ToolOutcome } from '../helpers/browser-mcp.js';
import { comparePng, rectOf, ToolbarDriver } from '../helpers/toolbar-driver.js';

/**
 * The acceptance test: an agent, in one MCP session and without reading any file into its
 * context, lists tabs, opens the toolbar in the designer's tab, waits for the designer's pick and
 * note, screenshots that element to a file, and saves the session through the idea store.
 * Puppeteer plays the designer with real mouse and keyboard events.
 */
const IDEA = '001. Demo Idea';

interface CaptureEvent {
  seq: number;
  type: string;
  tab: { id: number; url: string };
  data: Record<string, unknown>;
}

describe('agent and designer, one session', () => {
  let env: BrowserEnv;
  let mcp: McpSession;
  let page: Page;
  let reference: string;
  const outcomes: Array<{ tool: string; outcome: ToolOutcome }> = [];

  const call = async (tool: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
    const outcome = await mcp.call(tool, args);
    outcomes.push({ tool, outcome });
    if (outcome.isError) throw new Error(`${tool} failed: ${JSON.stringify(outcome.body)}`);
    return outcome.body;
  };

  beforeAll(async () => {
    env = await BrowserEnv.start();
    page = await env.openPage('/demo/');
    await page.evaluate(() => document.fonts.ready);
    reference = Buffer.from(await page.screenshot({ encoding: 'binary' })).toString('base64');
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
  });
  afterAll(async () => {
    await mcp?.close();
    await env?.dispose();
  });

  it('list_tabs → inject_toolbar → designer picks → wait_for_captures → capture_screenshot → save', async () => {
    // 1. The agent finds the designer's tab.
    const listing = await call('list_tabs');
    const tab = (listing.tabs as Array<{ page_index: number; url: string; browser_id: string }>).find((t) =>
      t.url.endsWith('/demo/'),
    );
    expect(tab).toBeDefined();

    // 2. It opens the toolbar there.
    const opened = await call('inject_toolbar', { page_index: tab?.page_index });
    expect(opened).toMatchObject({ status: 'success', already_open: false });

    // 3. The designer picks the call-to-action button and writes a note.
    const ui = await ToolbarDriver.attach(page);
    try {
      await waitUntil('the toolbar', async () =>
        (await ui.count('[data-mode="element"]')) === 1 ? true : null,
      );
      await ui.click('[data-mode="element"]');
      const r = await rectOf(page, '.hero .btn-primary');
      await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
      await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
      await ui.waitForCount('.list .item .thumb', 1);
      await page.keyboard.press('Escape');
      await ui.click('.list .item textarea', 0);
      await page.keyboard.type('Make our primary button look like this');
      await page.keyboard.press('Enter');
      await ui.waitForStatus(/^Note saved/);
    } finally {
      await ui.detach();
    }

    // 4. The agent receives both.
    const events: CaptureEvent[] = [];
    for (let i = 0; i < 10 && !events.some((e) => e.type === 'note_added'); i++) {
      const batch = await call('wait_for_captures', { timeout_ms: 20_000 });
      events.push(...(batch.events as CaptureEvent[]));
    }
    const picked = events.find((e) => e.type === 'element_picked');
    const note = events.find((e) => e.type === 'note_added');
    expect(picked?.data).toMatchObject({ selector: 'div.actions > a.btn-primary', tag: 'a' });
    expect(note?.data).toMatchObject({
      key: picked?.data.key,
      comment: 'Make our primary button look like this',
    });
    const selector = String(picked?.data.selector);

    // 5. It screenshots that element into the idea folder.
    const shot = await call('capture_screenshot', {
      mode: 'element',
      selector,
      page_index: tab?.page_index,
      idea_folder: IDEA,
    });
    expect(shot).toMatchObject({
      status: 'success',
      mode: 'element',
      relative_path: `x-ipe-docs/ideas/${IDEA}/uiux-references/screenshots/elem-001-crop.png`,
    });

    // 6. And saves the session through the idea store, pointing at the screenshot it wrote.
    const box = picked?.data.bounding_box as { x: number; y: number; width: number; height: number };
    const saved = await call('save_uiux_reference', {
      version: '1.0',
      source_url: picked?.tab.url,
      timestamp: new Date().toISOString(),
      idea_folder: IDEA,
      elements: [
        {
          id: 'elem-001',
          selector,
          tag: picked?.data.tag,
          bounding_box: box,
          screenshots: { full_page: null, element_crop: 'screenshots/elem-001-crop.png' },
          comment: note?.data.comment,
          extracted_assets: { styles: picked?.data.styles ?? {} },
        },
      ],
    });
    expect(saved).toMatchObject({
      status: 'success',
      session_file: 'ref-session-001.json',
      session_number: 1,
    });

    // Files on disk are valid and consistent.
    const refs = path.join(env.workspace, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');
    const session = ReferenceData.parse(
      JSON.parse(fs.readFileSync(path.join(refs, 'sessions', 'ref-session-001.json'), 'utf8')),
    );
    expect(session.elements?.[0]).toMatchObject({
      selector,
      comment: 'Make our primary button look like this',
      screenshots: { element_crop: 'screenshots/elem-001-crop.png' },
    });
    const merged = MergedReferenceData.parse(
      JSON.parse(fs.readFileSync(path.join(refs, 'reference-data.json'), 'utf8')),
    );
    expect(merged.elements?.map((e) => e.id)).toEqual(['elem-001']);
    const png = fs.readFileSync(path.join(refs, 'screenshots', 'elem-001-crop.png'));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([shot.width, shot.height]);
    const el = await rectOf(page, selector);
    const cmp = comparePng(png.toString('base64'), reference, {
      x: Math.floor(el.x),
      y: Math.floor(el.y),
    });
    expect(cmp.mismatch).toBeLessThan(0.01);

    // Nothing bulky entered the agent's context: every result is a small JSON object without image bytes.
    for (const { tool, outcome } of outcomes) {
      expect(outcome.size, tool).toBeLessThan(8_000);
      expect(JSON.stringify(outcome.body), tool).not.toMatch(/base64|data:image|iVBORw0KGgo/);
    }
  });
});
