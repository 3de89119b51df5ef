export declare const REAL_WEB_ARGS: string[];
export declare const REAL_WEB_WINDOW: string;

export interface CorpusPage {
  /** The npm package spec (`name@version`). */
  spec: string;
  /** The page's path inside the package. */
  file: string;
  name: string;
  heldOut: boolean;
}

export declare function isHeldOut(spec: string): boolean;
export declare function corpusPages(only?: string[] | null): CorpusPage[];

export interface CorpusServer {
  /** `quirks`: served without its doctype, as an old site would (quirks mode). */
  pageUrl(page: CorpusPage, options?: { quirks?: boolean }): string;
  close(): Promise<void>;
}
export declare function startCorpusServer(pages: CorpusPage[]): Promise<CorpusServer>;

/** Run in the page (page.evaluate). */
export declare function selectAreas(count: number, maxHeight: number): { selector: string; kind: string }[];
export declare function pinnedTop(): number;
