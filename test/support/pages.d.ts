export declare function fiveViewportPage(): { width: number; height: number; scroll: number };
