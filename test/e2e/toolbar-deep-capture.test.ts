/**
 * The designer's deep capture through the real toolbar (docs/design.md §7): Area and
 * Element mode with "Deep capture" and an instruction, the panel's counts and thumbnail, a worker
 * restart between capture and Save, and Save writing the session (its element pointing at the
 * area's files) plus referenced-elements.json 3.0, the clone and screenshots/area-N.png. The clone
 * is rendered offline and compared with the crop; typed form values, scripts and handlers never
 * reach a file; an agent's wait_for_captures hears of the saved area.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferencedElements } from '#shared/deep-capture/referenced-elements.js';
import { ReferenceData } from '#shared/reference-data.js';
import { BrowserEnv, waitUntil } from '../helpers/browser-fixture.js';
import { McpSession } from '../helpers/browser-mcp.js';
import { clickExtensionAction, rectOf, ToolbarDriver } from '../helpers/toolbar-driver.js';
import { comparePngs, FIDELITY_TOLERANCE, renderOffline } from '../support/deep-capture.js';
import {
  type FixtureServer,
  fillSignup,
  SIGNUP_SECRETS,
  startFixtureServer,
} from '../support/deep-fixtures.js';
import { pageSettled } from '../support/real-pages.js';

const IDEA = '001. Demo Idea';
const DEEP_LINE = '.list .item .deep:not([aria-busy])';
const SAVE = '.save .row .btn:not(.secondary)';

let env: BrowserEnv;
let server: FixtureServer;
let scratch: Page;
let mcp: McpSession | undefined;

beforeAll(async () => {
  // Stay detached from the worker: the first test restarts it (puppeteer would hold it paused).
  env = await BrowserEnv.start({ attachToWorker: false });
  server = await startFixtureServer();
  scratch = await env.browser.newPage();
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await env?.dispose();
});

const refsDir = () => path.join(env.workspace, 'x-ipe-docs', 'ideas', IDEA, 'uiux-references');
const pageRefs = () => path.join(refsDir(), 'page-element-references');

function readSession(n: number) {
  const file = path.join(refsDir(), 'sessions', `ref-session-${String(n).padStart(3, '0')}.json`);
  return ReferenceData.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

function readReferenced(): ReferencedElements {
  const file = path.join(pageRefs(), 'referenced-elements.json');
  return ReferencedElements.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

interface DeepAssets {
  area_id: string;
  instruction: string;
  element_count: number;
  files: Record<'referenced_elements' | 'structure_html' | 'styles_css' | 'screenshot', string>;
}

function deepAssetsOf(element: unknown): DeepAssets | undefined {
  return (element as { extracted_assets?: { deep_capture?: DeepAssets } }).extracted_assets?.deep_capture;
}

/** Opens a fixture page with the toolbar on it, ready to save. */
async function openWithToolbar(name: string): Promise<{ page: Page; ui: ToolbarDriver }> {
  const page = await env.browser.newPage();
  await page.goto(server.pageUrl(name), { waitUntil: 'load' });
  await page.evaluate(pageSettled);
  const ui = await ToolbarDriver.attach(page);
  await clickExtensionAction(env.browser, page);
  await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
  await ui.waitForCount(`.save option[value="${IDEA}"]`, 1);
  return { page, ui };
}

/**
 * Run in the page: the saturated colours (HSL saturation ≥ 35 %) the area under `selector` paints
 * its text, backgrounds and borders with, most used first, as `#rrggbb`.
 */
function areaBrandColours(selector: string): string[] {
  const counts = new Map<string, number>();
  const root = document.querySelector(selector);
  const add = (css: string) => {
    const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(css);
    if (!m || m[4] === '0') return;
    const [r, g, b] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
    const max = Math.max(r, g, b) / 255;
    const min = Math.min(r, g, b) / 255;
    const l = (max + min) / 2;
    const sat = max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
    if (sat < 0.35) return;
    const hex = `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    counts.set(hex, (counts.get(hex) ?? 0) + 1);
  };
  for (const el of root ? [root, ...Array.from(root.querySelectorAll('*'))] : []) {
    const s = getComputedStyle(el);
    add(s.backgroundColor);
    if (el.textContent?.trim()) add(s.color);
    if (s.borderTopStyle !== 'none') add(s.borderTopColor);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([hex]) => hex);
}

async function pageState(page: Page) {
  return page.evaluate(() => ({
    x: window.scrollX,
    y: window.scrollY,
    focus: document.activeElement?.className || document.activeElement?.localName,
  }));
}

describe('toolbar deep capture', () => {
  it('Area: deep capture with an instruction, counts and thumbnail, kept across a worker restart, saved as session + 3.0 files', async () => {
    let { page, ui } = await openWithToolbar('landing.html');
    // The features section in view below the sticky header.
    await page.evaluate(() => {
      const top = document.querySelector('.features')?.getBoundingClientRect().top ?? 0;
      const header = document.querySelector('.site-header')?.getBoundingClientRect().height ?? 0;
      window.scrollTo(0, window.scrollY + top - header - 16);
    });
    await ui.click('[data-mode="area"]');
    // On by default for areas.
    expect(await ui.count('.options:not([hidden]) .deep-toggle:checked')).toBe(1);
    await ui.click('.options .instruction');
    await page.keyboard.type('Rebuild the feature grid; keep the card shadows');
    // A click snaps to the section around the title.
    const title = await rectOf(page, '.features h2');
    await page.mouse.click(title.x + 10, title.y + title.height / 2);
    await ui.waitForCount('.area', 1);
    // A page element has focus (the header's login link): the capture leaves it there.
    await page.evaluate(() =>
      document.querySelector<HTMLElement>('.btn-ghost')?.focus({ preventScroll: true }),
    );
    const before = await pageState(page);
    expect(before.focus).toBe('btn btn-ghost');
    await page.keyboard.press('Enter');
    await ui.waitForCount(DEEP_LINE, 1, 30_000);
    const status = await ui.waitForStatus(/^Deep-captured /);
    expect(status).toMatch(/: \d+ elements, \d+ fonts? and images? .*in \d+ ms\.$/);
    expect(await ui.text(DEEP_LINE)).toMatch(/^deep · \d+ elements · [1-9]\d* resources/);
    expect(await ui.count('.list .item .thumb[style*="background-image"]')).toBe(1);
    // The page is where it was: no scroll, the same focus.
    expect(await pageState(page)).toEqual(before);
    const elements = Number(/(\d+) elements/.exec(await ui.text(DEEP_LINE))?.[1]);
    expect(elements).toBeGreaterThan(20);
    // docs/toolbar-deep-capture.png comes from this state (Area mode on again, its options shown);
    // refreshed only when asked: XIPE_UPDATE_DOCS=1 npx vitest run --project e2e <this file>.
    if (process.env.XIPE_UPDATE_DOCS === '1') {
      await ui.click('[data-mode="area"]');
      await page.screenshot({ path: path.join(process.cwd(), 'docs', 'toolbar-deep-capture.png') });
      await page.keyboard.press('Escape');
    }

    // Nothing reaches the idea before Save.
    expect(fs.existsSync(pageRefs())).toBe(false);
    // The worker (and with it the host) restarts: the staged capture is in extension storage.
    await clickExtensionAction(env.browser, page);
    await waitUntil('the toolbar to close', async () => ((await ui.hostCount()) === 0 ? true : null));
    await ui.detach();
    await env.stopServiceWorker(page);
    ({ page, ui } = await reopen(page));
    expect(await ui.text(DEEP_LINE)).toMatch(/^deep · \d+ elements/);

    // A colour of the area from the page palette, named by the designer: the area's tokens and
    // summary say what the designer said, not the palette's guess.
    const used = await page.evaluate(areaBrandColours, '.features');
    await ui.click('.section .btn.secondary');
    await ui.waitForCount('.palette .swatch', await ui.count('.palette .swatch'));
    let picked: string | undefined;
    for (const hex of used) {
      if ((await ui.count(`.palette .swatch[data-hex="${hex}"]`)) === 0) continue;
      picked = hex;
      break;
    }
    if (picked === undefined) throw new Error(`no palette swatch for the area's colours ${used.join(', ')}`);
    await ui.click(`.palette .swatch[data-hex="${picked}"]`);
    const guessed = /as (\w+)\.$/.exec(await ui.waitForStatus(/^Added #/))?.[1];
    const [role, key] = guessed === 'secondary' ? (['accent', 'a'] as const) : (['secondary', 's'] as const);
    await ui.focus('.list .item select.role');
    await page.keyboard.press(key);
    // The role goes to the worker with the select's change event; Save comes after it.
    await new Promise((resolve) => setTimeout(resolve, 500));

    await ui.click(SAVE);
    await ui.waitForStatus(/^Saved session 1 /, 30_000);
    const session = readSession(1);
    const element = session.elements?.[0];
    const deep = deepAssetsOf(element);
    expect(deep).toMatchObject({
      area_id: 'area-1',
      instruction: 'Rebuild the feature grid; keep the card shadows',
      element_count: elements,
      files: {
        referenced_elements: 'page-element-references/referenced-elements.json',
        structure_html: 'page-element-references/resources/area-1-structure.html',
        styles_css: 'page-element-references/resources/area-1-styles.css',
        screenshot: 'screenshots/area-1.png',
      },
    });
    for (const file of Object.values(deep?.files ?? {}))
      expect(fs.existsSync(path.join(refsDir(), file)), file).toBe(true);
    // The area's screenshot is the item's crop, byte for byte.
    const shot = fs.readFileSync(path.join(refsDir(), 'screenshots', 'area-1.png'));
    expect(shot.equals(fs.readFileSync(path.join(refsDir(), 'screenshots', 'elem-001-crop.png')))).toBe(true);

    expect(session.colors?.map((c) => [c.hex, (c as { role?: string }).role])).toEqual([[picked, role]]);
    const referenced = readReferenced();
    expect(referenced.version).toBe('3.0');
    const areaColours = (
      referenced.areas[0] as { design_tokens?: { colors: { hex: string; role: string | null }[] } }
    ).design_tokens?.colors;
    expect(areaColours?.find((c) => c.hex === picked)?.role, `${picked} in the area's tokens`).toBe(role);
    expect(areaColours?.filter((c) => c.role === role)).toHaveLength(1);
    const summary = fs.readFileSync(path.join(pageRefs(), 'summarized-uiux-reference.md'), 'utf8');
    expect(summary).toContain(`${picked} ${role}`);
    expect(referenced.areas.map((a) => [a.area_id, a.instruction])).toEqual([
      ['area-1', 'Rebuild the feature grid; keep the card shadows'],
    ]);
    const area = referenced.areas[0];
    if (!area) throw new Error('no area');
    expect(area.elements).toHaveLength(elements);
    expect(area.selected_area_bounding_box).toMatchObject({
      x: element?.bounding_box?.x,
      width: element?.bounding_box?.width,
    });
    expect(referenced.static_resources.length).toBeGreaterThan(0);
    for (const r of referenced.static_resources)
      expect(fs.existsSync(path.join(pageRefs(), r.local_path ?? '')), r.src).toBe(true);
    // The clone renders the area offline, as the crop shows it.
    const box = area.selected_area_bounding_box;
    if (box === null) throw new Error('the area has no bounding box');
    const rendered = await renderOffline(
      env.browser,
      path.join(pageRefs(), 'resources', 'area-1-structure.html'),
      box,
    );
    expect(rendered.refused).toEqual([]);
    const { share } = await comparePngs(scratch, shot, rendered.screenshot, FIDELITY_TOLERANCE);
    expect(share).toBeGreaterThanOrEqual(0.97);
    // Saved: the list is empty, and with it what was staged.
    await ui.waitForCount('.list .item', 0);
    await ui.detach();
    await page.close();
  });

  it('Element: deep capture switched on, on a form with typed values that never reach a file; the agent hears of it', async () => {
    // An agent listening to the designer (docs/design.md §7: deep captures reach wait_for_captures).
    mcp = await McpSession.start({ env: env.env, workspace: env.workspace });
    const page = await env.browser.newPage();
    await page.goto(server.pageUrl('signup.html'), { waitUntil: 'load' });
    await fillSignup(page);
    // Ticking the box scrolled the page: back to the top, where the card's corner shows.
    await page.evaluate(() => window.scrollTo(0, 0));
    const ui = await ToolbarDriver.attach(page);
    await clickExtensionAction(env.browser, page);
    await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
    await ui.waitForCount(`.save option[value="${IDEA}"]`, 1);
    await ui.click('[data-mode="element"]');
    // Off by default for elements: the designer turns it on.
    expect(await ui.count('.options .deep-toggle:not(:checked)')).toBe(1);
    await ui.click('.options .deep-toggle');
    expect(await ui.count('.options .deep-toggle:checked')).toBe(1);
    const card = await rectOf(page, '.signup-card');
    await page.mouse.move(card.x + 6, card.y + 6);
    await page.mouse.click(card.x + 6, card.y + 6);
    await ui.waitForCount(DEEP_LINE, 1, 30_000);
    expect(await ui.text('.list .item .sel')).toBe('form.signup-card');
    await page.keyboard.press('Escape');
    await ui.click(SAVE);
    await ui.waitForStatus(/^Saved session 2 /, 30_000);
    const deep = deepAssetsOf(readSession(2).elements?.[0]);
    expect(deep).toMatchObject({ area_id: 'area-2', instruction: '' });
    const area = readReferenced().areas.find((a) => a.area_id === 'area-2');
    expect(area?.elements.map((e) => e.element_details.tag)).toContain('input');
    // The agent is told where the area's files are, and of the session that points at them (events
    // from before its first call are kept: test 1's save is among them).
    const events: { type: string; data: Record<string, unknown> }[] = [];
    const find = (type: string, data: Record<string, unknown>) =>
      events.find((e) => e.type === type && Object.entries(data).every(([k, v]) => e.data[k] === v))?.data;
    const heardOf = () => find('deep_capture_saved', { idea_folder: IDEA, area_id: 'area-2' });
    const sessionOf = () => find('session_saved', { idea_folder: IDEA, session_number: 2 });
    for (let i = 0; i < 10 && !(heardOf() && sessionOf()); i++) {
      const { body } = await mcp.call('wait_for_captures', { timeout_ms: 5_000 });
      events.push(...(body.events as typeof events));
    }
    expect(sessionOf()).toBeDefined();
    const heard = heardOf();
    expect(heard).toMatchObject({ element_count: area?.elements.length });
    const heardFiles = (heard?.files ?? {}) as Record<string, string>;
    for (const [name, file] of Object.entries(deep?.files ?? {}))
      expect(fs.realpathSync(heardFiles[name] ?? ''), name).toBe(fs.realpathSync(path.join(refsDir(), file)));
    // Every text file the toolbar's saves wrote into the idea: sessions, the 3.0 files, the clones,
    // the summary, the tokens.
    const files = writtenTexts(refsDir());
    expect(files.map((f) => path.relative(refsDir(), f.file)).sort()).toEqual(
      expect.arrayContaining([
        'design-tokens.tokens.json',
        'page-element-references/referenced-elements.json',
        'page-element-references/resources/area-2-structure.html',
        'page-element-references/resources/area-2-styles.css',
        'page-element-references/summarized-uiux-reference.md',
        'sessions/ref-session-002.json',
      ]),
    );
    for (const { file, text } of files) {
      for (const secret of SIGNUP_SECRETS) expect(text, `${secret} in ${file}`).not.toContain(secret);
      expect(text, file).not.toMatch(/<script|\son[a-z]+\s*=|javascript:/i);
    }
    // No ticked box or chosen option in the clone, as an attribute or a key.
    const clone = files.filter((f) => /area-2-(structure|styles)\.|referenced-elements/.test(f.file));
    for (const { file, text } of clone) expect(text, file).not.toMatch(/\bchecked\b|\bselected\b(?!_area)/);
    await ui.detach();
    await page.close();
  });

  it('with deep capture off, an area is captured and saved as before', async () => {
    const { page, ui } = await openWithToolbar('landing.html');
    await ui.click('[data-mode="area"]');
    await ui.click('.options .deep-toggle');
    expect(await ui.count('.options .instruction[disabled]')).toBe(1);
    const title = await rectOf(page, '.hero h1');
    await page.mouse.click(title.x + 10, title.y + title.height / 2);
    await ui.waitForCount('.area', 1);
    await page.keyboard.press('Enter');
    await ui.waitForStatus(/^Captured .* in \d+ ms\.$/);
    expect(await ui.count('.list .item')).toBe(1);
    expect(await ui.count('.list .item .deep')).toBe(0);
    await ui.click(SAVE);
    await ui.waitForStatus(/^Saved session 3 /);
    const element = readSession(3).elements?.[0];
    expect(element?.extracted_assets).toMatchObject({ kind: 'area' });
    expect(deepAssetsOf(element)).toBeUndefined();
    expect(readReferenced().areas.map((a) => a.area_id)).toEqual(['area-1', 'area-2']);
    expect(fs.existsSync(path.join(refsDir(), 'screenshots', 'area-3.png'))).toBe(false);
    await ui.detach();
    await page.close();
  });
});

/** The text files under `dir` (all but the PNG screenshots and fetched images and fonts). */
function writtenTexts(dir: string): { file: string; text: string }[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(json|md|html|css|svg)$/.test(name))
    .map((name) => path.join(dir, name))
    .map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
}

/** Opens the toolbar again after a worker restart (the host comes back with the worker). */
async function reopen(page: Page): Promise<{ page: Page; ui: ToolbarDriver }> {
  const ui = await ToolbarDriver.attach(page);
  await clickExtensionAction(env.browser, page);
  await waitUntil('the toolbar', async () => ((await ui.hostCount()) === 1 ? true : null));
  await ui.waitForCount(DEEP_LINE, 1);
  await ui.waitForCount(`.save option[value="${IDEA}"]`, 1, 30_000);
  return { page, ui };
}
