import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDemoWorkspace, resolveInside, serveDirectory } from './demo.js';
import { classify, findBrowser, majorVersion } from './find-browser.js';
import { profileLockHolder } from './profile.js';
import { browserArgs } from './start-browser.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xstart-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('browserArgs', () => {
  const plan = {
    extensionDir: '/e x',
    profileDir: '/p',
    headless: false,
    runningAsRoot: false,
    url: 'http://h/',
  };
  it('loads only our extension into the dedicated profile', () => {
    expect(browserArgs(plan)).toEqual([
      '--load-extension=/e x',
      '--disable-extensions-except=/e x',
      '--user-data-dir=/p',
      '--no-first-run',
      '--no-default-browser-check',
      'http://h/',
    ]);
  });
  it('turns the sandbox off only as root, and adds the headless switches', () => {
    const args = browserArgs({ ...plan, headless: true, runningAsRoot: true });
    expect(args).toContain('--no-sandbox');
    expect(args).toContain('--headless=new');
    expect(args).toContain('--disable-gpu');
    expect(args.at(-1)).toBe('http://h/');
    expect(browserArgs({ ...plan, headless: true })).not.toContain('--no-sandbox');
  });
});

describe('findBrowser', () => {
  const platform = { platform: 'linux' as const, home: '/home/u', env: {} };
  const versions: Record<string, string> = {
    '/usr/bin/chromium': 'Chromium 156.0.1 built on Debian',
    '/usr/bin/google-chrome': 'Google Chrome 140.0.7339.80',
    '/opt/old/chrome': 'Google Chrome 120.0.1',
  };
  const deps = (present: string[], env: NodeJS.ProcessEnv = {}) => ({
    platform: { ...platform, env },
    exists: (f: string) => present.includes(f),
    versionOf: (f: string) => versions[f] ?? null,
    cftRoots: [],
  });

  it('prefers CHROME_PATH, then Chromium', () => {
    expect(
      findBrowser(deps(['/usr/bin/chromium', '/opt/old/chrome'], { CHROME_PATH: '/opt/old/chrome' })).found
        ?.path,
    ).toBe('/opt/old/chrome');
    expect(findBrowser(deps(['/usr/bin/chromium', '/usr/bin/google-chrome'])).found).toMatchObject({
      path: '/usr/bin/chromium',
      kind: 'chromium',
      major: 156,
    });
  });

  it('refuses branded Chrome ≥ 137 with the explanation', () => {
    const search = findBrowser(deps(['/usr/bin/google-chrome']));
    expect(search.found).toBeNull();
    expect(search.rejected[0]?.reason).toContain('ignore --load-extension');
    expect(search.rejected[0]?.candidate.kind).toBe('chrome');
  });

  it('reports a CHROME_PATH that does not exist', () => {
    const search = findBrowser(deps([], { CHROME_PATH: '/nope/chrome' }));
    expect(search.rejected[0]?.reason).toBe('CHROME_PATH=/nope/chrome does not exist');
  });

  it('finds Chrome for Testing in the puppeteer cache', () => {
    const root = path.join(tmp, 'chrome');
    const exe = path.join(root, 'linux-140.0.1', 'chrome-linux64', 'chrome');
    fs.mkdirSync(path.dirname(exe), { recursive: true });
    fs.writeFileSync(exe, '');
    const search = findBrowser({
      ...deps([exe]),
      versionOf: () => 'Google Chrome for Testing 140.0.1',
      cftRoots: [root],
    });
    expect(search.found).toMatchObject({ path: exe, kind: 'chrome-for-testing' });
  });

  it('classifies by version text and path', () => {
    expect(classify('/x/msedge', 'Microsoft Edge 140')).toBe('edge');
    expect(classify('/usr/bin/brave-browser', null)).toBe('brave');
    expect(majorVersion('Chromium 99.0.1')).toBe(99);
    expect(majorVersion(null)).toBeNull();
  });
});

describe('profile preferences', () => {
  it('detects a live browser holding the profile lock', () => {
    const profile = path.join(tmp, 'locked');
    fs.mkdirSync(profile);
    expect(profileLockHolder(profile)).toBeNull();
    fs.symlinkSync(`myhost-${process.pid}`, path.join(profile, 'SingletonLock'));
    expect(profileLockHolder(profile)).toBe(process.pid);
  });
});

describe('demo workspace and page', () => {
  it('copies the bundled demo workspace once', () => {
    const pkg = path.join(tmp, 'pkg');
    fs.mkdirSync(path.join(pkg, 'demo', 'workspace', 'x-ipe-docs', 'ideas', '001. Demo Idea'), {
      recursive: true,
    });
    const home = path.join(tmp, 'home');
    expect(ensureDemoWorkspace(home, pkg)).toEqual({ dir: path.join(home, 'demo-workspace'), created: true });
    expect(fs.existsSync(path.join(home, 'demo-workspace', 'x-ipe-docs', 'ideas', '001. Demo Idea'))).toBe(
      true,
    );
    expect(ensureDemoWorkspace(home, pkg).created).toBe(false);
  });

  it('keeps requests inside the served folder', () => {
    expect(resolveInside('/srv', '/a/b.html')).toBe('/srv/a/b.html');
    expect(resolveInside('/srv', '/../etc/passwd')).toBe('/srv/etc/passwd');
    expect(resolveInside('/srv', '/%2e%2e/x')).toBe('/srv/x');
    expect(resolveInside('/srv', '/a%00')).toBeNull();
    expect(resolveInside('/srv', '/%E0%A4%A')).toBeNull();
  });

  it('serves index.html on 127.0.0.1', async () => {
    fs.writeFileSync(path.join(tmp, 'index.html'), '<h1>demo</h1>');
    const server = await serveDirectory(tmp);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const body = await new Promise<string>((resolve, reject) => {
        http
          .get(server.url, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => {
              text += c.toString();
            });
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      expect(body).toBe('<h1>demo</h1>');
    } finally {
      await server.close();
    }
  });
});
