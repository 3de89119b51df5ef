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
