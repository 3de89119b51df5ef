import path from 'node:path';

export const BROWSERS = ['chrome', 'chromium', 'edge', 'brave'] as const;
export type BrowserName = (typeof BROWSERS)[number];

interface BrowserLayout {
  /** User data dir relative to the Linux config dir (~/.config). */
  linux: string;
  /** Relative to ~/Library/Application Support. */
  darwin: string;
  /** HKCU key under which NativeMessagingHosts live. */
  registry: string;
  /** Executables to look for, in order. */
  executables: { linux: string[]; darwin: string[]; win32: string[] };
}

export const BROWSER_LAYOUTS: Record<BrowserName, BrowserLayout> = {
  chrome: {
    linux: 'google-chrome',
    darwin: 'Google/Chrome',
    registry: 'HKCU\\Software\\Google\\Chrome',
    executables: {
      linux: ['/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome'],
      darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
      win32: ['Google\\Chrome\\Application\\chrome.exe'],
    },
  },
  chromium: {
    linux: 'chromium',
    darwin: 'Chromium',
    registry: 'HKCU\\Software\\Chromium',
    executables: {
      linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'],
      darwin: ['/Applications/Chromium.app/Contents/MacOS/Chromium'],
      win32: ['Chromium\\Application\\chrome.exe'],
    },
  },
  edge: {
    linux: 'microsoft-edge',
    darwin: 'Microsoft Edge',
    registry: 'HKCU\\Software\\Microsoft\\Edge',
    executables: {
      linux: ['/usr/bin/microsoft-edge', '/usr/bin/microsoft-edge-stable', '/opt/microsoft/msedge/msedge'],
      darwin: ['/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'],
      win32: ['Microsoft\\Edge\\Application\\msedge.exe'],
    },
  },
  brave: {
    linux: 'BraveSoftware/Brave-Browser',
    darwin: 'BraveSoftware/Brave-Browser',
    registry: 'HKCU\\Software\\BraveSoftware\\Brave-Browser',
    executables: {
      linux: ['/usr/bin/brave-browser', '/usr/bin/brave', '/opt/brave.com/brave/brave'],
      darwin: ['/Applications/Brave Browser.app/Contents/MacOS/Brave Browser'],
      win32: ['BraveSoftware\\Brave-Browser\\Application\\brave.exe'],
    },
  },
};

export interface PlatformEnv {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
}

/** The browser's user-level data dir (where a NativeMessagingHosts folder is read), or null on Windows. */
export function userDataDir(browser: BrowserName, p: PlatformEnv): string | null {
  const layout = BROWSER_LAYOUTS[browser];
  if (p.platform === 'darwin') return path.join(p.home, 'Library', 'Application Support', layout.darwin);
  if (p.platform === 'win32') return null;
  const xdg = p.env.XDG_CONFIG_HOME;
  return path.join(xdg !== undefined && xdg !== '' ? xdg : path.join(p.home, '.config'), layout.linux);
}

/** Where the host manifest goes for one browser (user level). Windows uses the registry instead. */
export function nativeHostsDir(browser: BrowserName, p: PlatformEnv): string | null {
  const dir = userDataDir(browser, p);
  return dir === null ? null : path.join(dir, 'NativeMessagingHosts');
}

export function registryKey(browser: BrowserName, hostName: string): string {
  return `${BROWSER_LAYOUTS[browser].registry}\\NativeMessagingHosts\\${hostName}`;
}

/** Candidate executables for a browser on this platform (absolute on Unix; Windows joins Program Files). */
export function executableCandidates(browser: BrowserName, p: PlatformEnv): string[] {
  const layout = BROWSER_LAYOUTS[browser];
  if (p.platform === 'win32') {
    const roots = [p.env.PROGRAMFILES, p.env['PROGRAMFILES(X86)'], p.env.LOCALAPPDATA].filter(
      (r): r is string => typeof r === 'string' && r !== '',
    );
    return roots.flatMap((root) => layout.executables.win32.map((rel) => path.win32.join(root, rel)));
  }
  return p.platform === 'darwin' ? layout.executables.darwin : layout.executables.linux;
}

export function isBrowserName(value: string): value is BrowserName {
  return (BROWSERS as readonly string[]).includes(value);
}
