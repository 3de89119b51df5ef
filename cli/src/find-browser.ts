import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { executableCandidates, type PlatformEnv } from './browsers.js';

/**
 * Finds a browser that honours `--load-extension`. Branded Google Chrome 137 and later ignore
 * that switch (a policy change, not a bug), so it is the last resort and is refused with an
 * explanation; Chromium and Chrome for Testing honour it.
 */

export type BrowserKind = 'chromium' | 'chrome-for-testing' | 'chrome' | 'edge' | 'brave' | 'unknown';

export interface BrowserCandidate {
  path: string;
  kind: BrowserKind;
  /** `--version` output, or null when the browser does not print one (Windows). */
  version: string | null;
  major: number | null;
  /** Where the candidate came from: CHROME_PATH, a known location... */
  source: string;
}

export interface BrowserSearch {
  found: BrowserCandidate | null;
  /** Candidates that exist but cannot be used, each with the reason. */
  rejected: Array<{ candidate: BrowserCandidate; reason: string }>;
  /** Every path looked at, for the error message. */
  looked: string[];
}

export const BRANDED_CHROME_EXPLANATION =
  'Google Chrome 137 and later ignore --load-extension, so `start` cannot load the extension into it. ' +
  'Install Chromium (Debian/Ubuntu: `apt install chromium`; macOS: `brew install --cask chromium`) or ' +
  'Chrome for Testing (`npx @puppeteer/browsers install chrome@stable`) and/or set CHROME_PATH to it; ' +
  'or load dist/extension by hand in your Chrome (chrome://extensions → Developer mode → Load unpacked) ' +
  'and run `x-ipe-uiux install --browser chrome`.';

export interface FindBrowserDeps {
  platform: PlatformEnv;
  exists?: (file: string) => boolean;
  /** Runs `<exe> --version`; null when it prints nothing usable. */
  versionOf?: (file: string) => string | null;
  /** Directories to search for Chrome for Testing builds (puppeteer's cache by default). */
  cftRoots?: string[];
}

export function readVersion(file: string): string | null {
  try {
    const out = execFileSync(file, ['--version'], { timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    return out === '' ? null : (out.split('\n')[0] ?? null);
  } catch {
    return null;
  }
}

export function classify(file: string, version: string | null): BrowserKind {
  const text = `${version ?? ''} ${file}`.toLowerCase();
  if (
    text.includes('for testing') ||
    text.includes('chrome-for-testing') ||
    /chrome-(linux|mac|win)/.test(text)
  ) {
    return 'chrome-for-testing';
  }
  if (text.includes('chromium')) return 'chromium';
  if (text.includes('edge') || text.includes('msedge')) return 'edge';
  if (text.includes('brave')) return 'brave';
  if (text.includes('chrome')) return 'chrome';
  return 'unknown';
}

export function majorVersion(version: string | null): number | null {
  const m = version === null ? null : /(\d+)\.\d+/.exec(version);
  return m?.[1] === undefined ? null : Number(m[1]);
}

/** Why a candidate cannot load the unpacked extension, or null when it can. */
export function whyUnusable(c: BrowserCandidate): string | null {
  if (c.kind === 'chrome' && (c.major === null || c.major >= 137)) {
    return `${c.path} is Google Chrome ${c.major ?? '(unknown version)'}. ${BRANDED_CHROME_EXPLANATION}`;
  }
  return null;
}

/** Chrome for Testing builds installed by `@puppeteer/browsers` / puppeteer under these roots. */
function chromeForTestingBuilds(
  roots: string[],
  platform: NodeJS.Platform,
  exists: (f: string) => boolean,
): string[] {
  const found: string[] = [];
  for (const root of roots) {
    let versions: string[];
    try {
      versions = fs.readdirSync(root).sort().reverse();
    } catch {
      continue;
    }
    for (const v of versions) {
      const base = path.join(root, v);
      const inner =
        platform === 'darwin'
          ? ['chrome-mac-arm64', 'chrome-mac-x64'].map((d) =>
              path.join(
                base,
                d,
                'Google Chrome for Testing.app',
                'Contents',
                'MacOS',
                'Google Chrome for Testing',
              ),
            )
          : platform === 'win32'
            ? [path.join(base, 'chrome-win64', 'chrome.exe')]
            : [path.join(base, 'chrome-linux64', 'chrome')];
      found.push(...inner.filter(exists));
    }
  }
  return found;
}

export function findBrowser(deps: FindBrowserDeps): BrowserSearch {
  const p = deps.platform;
  const exists = deps.exists ?? ((f: string) => fs.existsSync(f));
  const versionOf = deps.versionOf ?? readVersion;
  const cftRoots = deps.cftRoots ?? [path.join(p.home, '.cache', 'puppeteer', 'chrome')];
  const ordered: Array<{ path: string; source: string }> = [];
  const envPath = p.env.CHROME_PATH;
  if (envPath !== undefined && envPath !== '') ordered.push({ path: envPath, source: 'CHROME_PATH' });
  for (const c of executableCandidates('chromium', p)) ordered.push({ path: c, source: 'Chromium' });
  if (p.platform === 'darwin') {
    ordered.push({
      path: '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
      source: 'Chrome for Testing',
    });
  }
  for (const c of chromeForTestingBuilds(cftRoots, p.platform, exists))
    ordered.push({ path: c, source: 'Chrome for Testing' });
  for (const c of executableCandidates('chrome', p)) ordered.push({ path: c, source: 'Google Chrome' });

  const search: BrowserSearch = { found: null, rejected: [], looked: [] };
  const seen = new Set<string>();
  for (const { path: file, source } of ordered) {
    if (seen.has(file)) continue;
    seen.add(file);
    search.looked.push(file);
    if (!exists(file)) {
      if (source === 'CHROME_PATH') {
        search.rejected.push({
          candidate: { path: file, kind: 'unknown', version: null, major: null, source },
          reason: `CHROME_PATH=${file} does not exist`,
        });
      }
      continue;
    }
    const version = versionOf(file);
    const candidate: BrowserCandidate = {
      path: file,
      kind: classify(file, version),
      version,
      major: majorVersion(version),
      source,
    };
    const why = whyUnusable(candidate);
    if (why === null) {
      search.found = candidate;
      return search;
    }
    search.rejected.push({ candidate, reason: why });
  }
  return search;
}
