/**
 * The one Chromium launcher shared by the e2e fixture and the bench (test/support/chromium.js):
 * its pure parts, checked without starting a browser (the e2e suites start one through it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTENSION_ID as PINNED_ID } from '#shared/constants.js';
import { chromiumArgs, EXTENSION_DIST, EXTENSION_ID, prepareProfile } from '../support/chromium.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const profile = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xipe-profile-'));
  dirs.push(dir);
  return dir;
};

describe('test/support/chromium.js', () => {
  it('derives the same extension id from the manifest key as the one the product pins', () => {
    expect(EXTENSION_ID).toBe(PINNED_ID);
  });

  it('loads only the built extension, quietly, at the asked window size', () => {
    const args = chromiumArgs({ windowSize: '1024,700' });
    expect(args).toContain(`--load-extension=${EXTENSION_DIST}`);
    expect(args).toContain(`--disable-extensions-except=${EXTENSION_DIST}`);
    expect(args).toContain('--window-size=1024,700');
    expect(chromiumArgs()).toContain('--window-size=1280,800');
    expect(args).toEqual(expect.arrayContaining(['--no-first-run', '--disable-background-networking']));
  });

  it('turns "Allow User Scripts" on in the profile unless asked not to', () => {
    const on = profile();
    prepareProfile(on);
    const prefs = JSON.parse(fs.readFileSync(path.join(on, 'Default', 'Preferences'), 'utf8'));
    expect(prefs.extensions.settings[PINNED_ID]).toEqual({ user_scripts_enabled: true });
    const off = profile();
    prepareProfile(off, { userScripts: false });
    expect(fs.existsSync(path.join(off, 'Default'))).toBe(true);
    expect(fs.existsSync(path.join(off, 'Default', 'Preferences'))).toBe(false);
  });

  it("loads the bench floor's extension beside ours, user scripts allowed for both", () => {
    const args = chromiumArgs({ extraExtensions: ['/tmp/floor-ext'] });
    expect(args).toContain(`--load-extension=${EXTENSION_DIST},/tmp/floor-ext`);
    expect(args).toContain(`--disable-extensions-except=${EXTENSION_DIST},/tmp/floor-ext`);
    const dir = profile();
    prepareProfile(dir, { extraUserScriptIds: ['abcdefghijklmnopabcdefghijklmnop'] });
    const prefs = JSON.parse(fs.readFileSync(path.join(dir, 'Default', 'Preferences'), 'utf8'));
    expect(Object.keys(prefs.extensions.settings).sort()).toEqual(
      [PINNED_ID, 'abcdefghijklmnopabcdefghijklmnop'].sort(),
    );
  });
});
