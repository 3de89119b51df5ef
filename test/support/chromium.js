// One way to start Chromium the way a user runs the product: the built extension loaded, the
// native host registered (`x-ipe-uiux install --user-data-dir`) for that profile, the "Allow User
// Scripts" toggle on, and the flags that keep a headless run quiet and offline. Plain ESM so that
// both the vitest suites (TypeScript; types in chromium.d.ts) and bench/ (plain node) use it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI_BIN = path.join(REPO_ROOT, 'bin', 'x-ipe-uiux.js');
export const EXTENSION_DIST = path.join(REPO_ROOT, 'dist', 'extension');
/**
 * The id Chromium gives the extension, derived as Chromium does from the `key` in manifest.json
 * (the first 16 bytes of SHA-256 of the public key, each hex digit mapped 0-f to a-p), so it
 * always equals shared/src/constants.ts EXTENSION_ID without this plain-JS file importing TS.
 */
export const EXTENSION_ID = (() => {
  const { key } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'manifest.json'), 'utf8'));
  const hex = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
})();

export const chromePath = () => process.env.CHROME_PATH || '/usr/bin/chromium';

/** Throws with what to run when dist/extension has not been built. */
export function assertExtensionBuilt() {
  if (!fs.existsSync(path.join(EXTENSION_DIST, 'manifest.json'))) {
    throw new Error(`${EXTENSION_DIST} is missing: run \`npm run build\` first`);
  }
}

/**
 * Flags for a quiet, offline headless run with only our extension (and `extraExtensions`, unpacked
 * dirs the bench loads beside it). `deviceScaleFactor` 2 renders as a Retina screen does
 * (devicePixelRatio 2, captures twice the CSS size): the real switch, not DevTools emulation,
 * which had intermittent readback failures.
 */
export function chromiumArgs({
  windowSize = '1280,800',
  deviceScaleFactor = 1,
  extraExtensions = [],
  extraArgs = [],
} = {}) {
  const extensions = [EXTENSION_DIST, ...extraExtensions].join(',');
  return [
    ...(deviceScaleFactor !== 1 ? [`--force-device-scale-factor=${deviceScaleFactor}`] : []),
    `--load-extension=${extensions}`,
    `--disable-extensions-except=${extensions}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--window-size=${windowSize}`,
    ...extraArgs,
  ];
}

/**
 * Creates the profile's Default dir and, unless `userScripts` is false, turns "Allow User Scripts"
 * on for our extension and for the extension ids in `extraUserScriptIds`.
 */
export function prepareProfile(userDataDir, { userScripts = true, extraUserScriptIds = [] } = {}) {
  fs.mkdirSync(path.join(userDataDir, 'Default'), { recursive: true });
  if (!userScripts) return;
  const ids = [EXTENSION_ID, ...extraUserScriptIds];
  const settings = Object.fromEntries(ids.map((id) => [id, { user_scripts_enabled: true }]));
  const prefs = { extensions: { settings } };
  fs.writeFileSync(path.join(userDataDir, 'Default', 'Preferences'), JSON.stringify(prefs));
}

/** Registers the native host for this profile with the real CLI; throws with its output on failure. */
export function installHost({ userDataDir, workspace, env }) {
  const args = [CLI_BIN, 'install', '--user-data-dir', userDataDir];
  if (workspace !== undefined) args.push('--workspace', workspace);
  const result = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`x-ipe-uiux install failed (${result.status}): ${result.stderr}${result.stdout}`);
  }
}

/**
 * Prepares the profile, installs the host (unless `installHost` is false) and launches headless
 * Chromium with the extension. `env` is the environment of Chromium and so of the host it starts
 * (XIPE_UIUX_HOME, HOME). With `attachToWorker: false` puppeteer stays off the extension's service
 * worker: an attached session keeps the worker alive, and paused after a restart.
 */
export async function launchChromium({
  userDataDir,
  env,
  workspace,
  userScripts = true,
  installHost: install = true,
  attachToWorker = true,
  windowSize,
  deviceScaleFactor,
  extraExtensions = [],
  extraArgs = [],
}) {
  assertExtensionBuilt();
  prepareProfile(userDataDir, { userScripts, extraUserScriptIds: extraExtensions.map((e) => e.id) });
  if (install) installHost({ userDataDir, workspace, env });
  return puppeteer.launch({
    executablePath: chromePath(),
    headless: true,
    userDataDir,
    defaultViewport: null,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: chromiumArgs({
      windowSize,
      deviceScaleFactor,
      extraExtensions: extraExtensions.map((e) => e.dir),
      extraArgs,
    }),
    env,
    ...(attachToWorker
      ? {}
      : { targetFilter: (t) => !(t.type() === 'service_worker' && t.url().includes(EXTENSION_ID)) }),
  });
}
