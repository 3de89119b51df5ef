import fs from 'node:fs';
import path from 'node:path';
import { EXTENSION_ID } from '#shared/constants.js';
import { writeFileAtomicSync } from '#shared/node/atomic-write.js';

/**
 * What `start` writes into the profile it launches, before launch, so nothing needs a manual click:
 * - the per-extension "Allow User Scripts" toggle, `extensions.settings.<id>.user_scripts_enabled`;
 * - the toolbar's shortcut: Chromium leaves a `--load-extension` install's suggested key unassigned
 *   (`chrome.commands.getAll()` answers an empty shortcut), so `extensions.commands` gets
 *   `<platform>:Alt+Shift+X` → `_execute_action`, unless the user bound that key or our action;
 * - the action pinned to the toolbar (`extensions.pinned_extensions`).
 * Every other preference is kept.
 */

/** The manifest's suggested key for `_execute_action`. */
export const TOOLBAR_SHORTCUT = 'Alt+Shift+X';

/** Chromium's prefix for a keybinding in `extensions.commands` (Command::CommandPlatform). */
function commandPlatform(): string {
  if (process.platform === 'darwin') return 'mac';
  if (process.platform === 'win32') return 'windows';
  return 'linux';
}

export const preferencesPath = (profileDir: string): string =>
  path.join(profileDir, 'Default', 'Preferences');

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * Returns the Preferences object with user scripts allowed for our extension, its shortcut bound
 * and its action pinned (input untouched).
 */
export function withToolbarReady(
  prefs: Record<string, unknown>,
  extensionId = EXTENSION_ID,
): Record<string, unknown> {
  const extensions = asObject(prefs.extensions);
  const settings = asObject(extensions.settings);
  const ours = asObject(settings[extensionId]);
  const commands = asObject(extensions.commands);
  const key = `${commandPlatform()}:${TOOLBAR_SHORTCUT}`;
  const bound = Object.values(commands).some(
    (binding) =>
      asObject(binding).extension === extensionId && asObject(binding).command_name === '_execute_action',
  );
  const pinned = Array.isArray(extensions.pinned_extensions) ? extensions.pinned_extensions : [];
  return {
    ...prefs,
    extensions: {
      ...extensions,
      settings: { ...settings, [extensionId]: { ...ours, user_scripts_enabled: true } },
      commands:
        bound || key in commands
          ? commands
          : {
              ...commands,
              [key]: { command_name: '_execute_action', extension: extensionId, global: false },
            },
      pinned_extensions: pinned.includes(extensionId) ? pinned : [...pinned, extensionId],
    },
  };
}

/**
 * Merges the above into `<profile>/Default/Preferences` (created when missing). Throws, leaving
 * the file alone, when it exists but is not a JSON object. Returns whether the file changed.
 */
export function readyToolbarProfile(profileDir: string, extensionId = EXTENSION_ID): boolean {
  const file = preferencesPath(profileDir);
  let prefs: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new SyntaxError('not an object');
    prefs = parsed as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(
        `${file} is not valid JSON (${(err as Error).message}); close the browser using this profile, or delete the file, and retry`,
      );
    }
  }
  const ready = withToolbarReady(prefs, extensionId);
  if (JSON.stringify(ready) === JSON.stringify(prefs)) return false;
  writeFileAtomicSync(file, JSON.stringify(ready), {
    mode: 0o600,
    dirMode: 0o700,
  });
  return true;
}

/**
 * Chromium allows one browser process per profile; a second launch just hands its URL over and
 * exits. Returns the pid holding the profile's SingletonLock (`<host>-<pid>` symlink), if alive.
 */
export function profileLockHolder(profileDir: string): number | null {
  let target: string;
  try {
    target = fs.readlinkSync(path.join(profileDir, 'SingletonLock'));
  } catch {
    return null;
  }
  const pid = Number(/-(\d+)$/.exec(target)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}
