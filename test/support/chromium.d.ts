import type { Browser } from 'puppeteer-core';

export declare const REPO_ROOT: string;
export declare const CLI_BIN: string;
export declare const EXTENSION_DIST: string;
export declare const EXTENSION_ID: string;

export declare function chromePath(): string;

export declare function assertExtensionBuilt(): void;

export declare function chromiumArgs(options?: {
  windowSize?: string;
  deviceScaleFactor?: number;
  extraExtensions?: string[];
  extraArgs?: string[];
}): string[];

export declare function prepareProfile(
  userDataDir: string,
  options?: { userScripts?: boolean; extraUserScriptIds?: string[] },
): void;

export declare function installHost(options: {
  userDataDir: string;
  workspace?: string;
  env: NodeJS.ProcessEnv;
}): void;

export interface LaunchChromiumOptions {
  userDataDir: string;
  /** Chromium's environment, inherited by the native host it starts (XIPE_UIUX_HOME, HOME). */
  env: NodeJS.ProcessEnv;
  /** Registered with the host by install (`--workspace`). */
  workspace?: string;
  /** Turn "Allow User Scripts" on before launch (default true). */
  userScripts?: boolean;
  /** Register the native host for the profile (default true). */
  installHost?: boolean;
  /** Let puppeteer attach to the extension's service worker (default true). */
  attachToWorker?: boolean;
  /** `W,H` (default 1280,800). */
  windowSize?: string;
  /** devicePixelRatio through `--force-device-scale-factor` (default 1). */
  deviceScaleFactor?: number;
  /** Unpacked extensions loaded beside ours, user scripts allowed for each (the bench's floor). */
  extraExtensions?: { dir: string; id: string }[];
  /** More Chromium flags (the real-web corpus makes every host but loopback unresolvable). */
  extraArgs?: string[];
}

export declare function launchChromium(options: LaunchChromiumOptions): Promise<Browser>;
