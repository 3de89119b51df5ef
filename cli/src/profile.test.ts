import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '#shared/constants.js';
import { preferencesPath, readyToolbarProfile, TOOLBAR_SHORTCUT } from './profile.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xprofile-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const platform = process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'windows' : 'linux';
const OUR_KEY = `${platform}:${TOOLBAR_SHORTCUT}`;
const ours = { command_name: '_execute_action', extension: EXTENSION_ID, global: false };
const read = (profile: string) => JSON.parse(fs.readFileSync(preferencesPath(profile), 'utf8'));

describe('profile preferences', () => {
  it('allows user scripts, binds the shortcut, pins the action and keeps every other preference', () => {
    const profile = path.join(tmp, 'p');
    fs.mkdirSync(path.join(profile, 'Default'), { recursive: true });
    const prefs = {
      browser: { has_seen_welcome_page: true },
      extensions: {
        settings: { other: { a: 1 }, [EXTENSION_ID]: { location: 4 } },
        ui: { developer_mode: true },
        pinned_extensions: ['other'],
      },
    };
    fs.writeFileSync(preferencesPath(profile), JSON.stringify(prefs));
    expect(readyToolbarProfile(profile)).toBe(true);
    expect(read(profile)).toEqual({
      browser: { has_seen_welcome_page: true },
      extensions: {
        settings: { other: { a: 1 }, [EXTENSION_ID]: { location: 4, user_scripts_enabled: true } },
        ui: { developer_mode: true },
        commands: { [OUR_KEY]: ours },
        pinned_extensions: ['other', EXTENSION_ID],
      },
    });
    expect(readyToolbarProfile(profile)).toBe(false);
  });

  it("keeps the user's own bindings: of that key, or of our action to another key", () => {
    const taken = path.join(tmp, 'taken');
    fs.mkdirSync(path.join(taken, 'Default'), { recursive: true });
    const theirs = { command_name: 'go', extension: 'other', global: false };
    fs.writeFileSync(
      preferencesPath(taken),
      JSON.stringify({ extensions: { commands: { [OUR_KEY]: theirs } } }),
    );
    readyToolbarProfile(taken);
    expect(read(taken).extensions.commands).toEqual({ [OUR_KEY]: theirs });

    const moved = path.join(tmp, 'moved');
    fs.mkdirSync(path.join(moved, 'Default'), { recursive: true });
    const elsewhere = { [`${platform}:Ctrl+Shift+Y`]: ours };
    fs.writeFileSync(preferencesPath(moved), JSON.stringify({ extensions: { commands: elsewhere } }));
    readyToolbarProfile(moved);
    expect(read(moved).extensions.commands).toEqual(elsewhere);
  });

  it('creates Preferences in a fresh profile and refuses a corrupt one', () => {
    const fresh = path.join(tmp, 'fresh');
    readyToolbarProfile(fresh);
    expect(read(fresh)).toEqual({
      extensions: {
        settings: { [EXTENSION_ID]: { user_scripts_enabled: true } },
        commands: { [OUR_KEY]: ours },
        pinned_extensions: [EXTENSION_ID],
      },
    });
    fs.writeFileSync(preferencesPath(fresh), '{oops');
    expect(() => readyToolbarProfile(fresh)).toThrow(/not valid JSON/);
    expect(fs.readFileSync(preferencesPath(fresh), 'utf8')).toBe('{oops');
  });
});
