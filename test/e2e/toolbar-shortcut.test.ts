import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterEach, describe, expect, it } from 'vitest';
import { readyToolbarProfile, TOOLBAR_SHORTCUT } from '../../cli/src/profile.js';
import {
  assertExtensionBuilt,
  chromePath,
  chromiumArgs,
  EXTENSION_ID,
  prepareProfile,
} from '../support/chromium.js';

/**
 * What a designer gets from `start`'s profile in the real browser: Chromium leaves the suggested
 * shortcut of a `--load-extension` install unassigned, so Alt+Shift+X did nothing on a fresh
 * profile until `start` bound it; and the action is pinned to the toolbar.
 */
interface Ready {
  shortcut: string | undefined;
  pinned: boolean;
}

let browser: Browser | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await browser?.close();
  browser = null;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function readyIn(prepare: (profile: string) => void): Promise<Ready> {
  assertExtensionBuilt();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-shortcut-'));
  dirs.push(profile);
  prepare(profile);
  browser = await puppeteer.launch({
    executablePath: chromePath(),
    headless: true,
    userDataDir: profile,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: chromiumArgs(),
    env: { ...process.env, HOME: profile },
  });
  const target = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().includes(EXTENSION_ID),
  );
  const worker = await target.worker();
  if (!worker) throw new Error('no service worker');
  // Right after the target appears `chrome` can still be undefined in it for a moment.
  for (let i = 0; i < 50 && !(await worker.evaluate(() => typeof chrome !== 'undefined')); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return worker.evaluate(async () => {
    const commands = await chrome.commands.getAll();
    const settings = await chrome.action.getUserSettings();
    return {
      shortcut: commands.find((c) => c.name === '_execute_action')?.shortcut,
      pinned: settings.isOnToolbar,
    };
  });
}

describe("start's profile", () => {
  it('a plain --load-extension profile leaves the shortcut unassigned (why start binds it)', async () => {
    expect(await readyIn((profile) => prepareProfile(profile))).toEqual({ shortcut: '', pinned: false });
  });

  it('binds Alt+Shift+X to the toolbar and pins its action', async () => {
    expect(await readyIn((profile) => readyToolbarProfile(profile))).toEqual({
      shortcut: TOOLBAR_SHORTCUT,
      pinned: true,
    });
  });
});
