export declare function encodePng(width: number, height: number, raw: Buffer, level?: number): Buffer;
export declare function gradientPng(width: number, height: number): Buffer;
export declare function photoPng(width: number, height: number, seed?: number): Buffer;
