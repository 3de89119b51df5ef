import fs from 'node:fs';
import path from 'node:path';
import { EXTENSION_ID } from '../../shared/src/constants.js';
import { writeFileAtomicSync } from '../../shared/src/node/atomic-write.js';

/**
 * The per-extension "Allow User Scripts" toggle lives in the profile's Preferences as
 * `extensions.settings.<id>.user_scripts_enabled`. Written before launch, Chromium honours it, so
 * `start` needs no manual click. Every other preference is kept.
 */

export const preferencesPath = (profileDir: string): string =>
  path.join(profileDir, 'Default', 'Preferences');

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Returns the Preferences object with user scripts allowed for our extension (input untouched). */
export function withUserScriptsAllowed(
  prefs: Record<string, unknown>,
  extensionId = EXTENSION_ID,
): Record<string, unknown> {
  const extensions = asObject(prefs.extensions);
  const settings = asObject(extensions.settings);
  const ours = asObject(settings[extensionId]);
  return {
    ...prefs,
    extensions: {
      ...extensions,
      settings: { ...settings, [extensionId]: { ...ours, user_scripts_enabled: true } },
    },
  };
}

/**
 * Merges the toggle into `<profile>/Default/Preferences` (created when missing). Throws, leaving
 * the file alone, when it exists but is not a JSON object. Returns whether the file changed.
 */
export function allowUserScripts(profileDir: string, extensionId = EXTENSION_ID): boolean {
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
  const already =
    asObject(asObject(asObject(prefs.extensions).settings)[extensionId]).user_scripts_enabled === true;
  if (already) return false;
  writeFileAtomicSync(file, JSON.stringify(withUserScriptsAllowed(prefs, extensionId)), {
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
