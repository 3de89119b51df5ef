export declare const FIXTURES_DIR: string;

export interface FixtureArea {
  page: string;
  name: string;
  selector: string;
  maxHeight?: number;
  heldOut?: boolean;
  below?: number;
}

export declare const AREAS: FixtureArea[];

export interface FixtureServer {
  origin: string;
  remoteOrigin: string;
  pageUrl(page: string): string;
  close(): Promise<void>;
}

export declare function startFixtureServer(): Promise<FixtureServer>;

export declare const SIGNUP_SECRETS: string[];
export declare function fillSignup(page: import('puppeteer-core').Page): Promise<void>;
