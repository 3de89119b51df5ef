export declare const REAL_PAGES: string[];

export declare function realPageResponse(
  pathname: string,
  searchParams: URLSearchParams,
): { type: string; body: string | Buffer } | null;

export declare function pageSettled(): Promise<{ scrollHeight: number; viewport: number }>;
