export interface DecodedImage {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Buffer;
}

export declare function encodePng(width: number, height: number, rgba: Buffer, level?: number): Buffer;
export declare function decodePng(png: Buffer): DecodedImage;
export declare function pngSize(png: Buffer): { width: number; height: number };
export declare function pixelAt(image: DecodedImage, x: number, y: number): [number, number, number];
export declare function compareImages(
  image: DecodedImage,
  reference: DecodedImage,
  options?: { x?: number; y?: number; tolerance?: number; rows?: number },
): { mismatch: number; badRows: number[] };
export declare function gradientPng(width: number, height: number): Buffer;
export declare function noisePng(bytes: number, seed?: number): Buffer;
export declare function photoPng(width: number, height: number, seed?: number): Buffer;
