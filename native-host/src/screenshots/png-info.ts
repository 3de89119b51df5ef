import { XipeError } from '#shared/errors.js';
import { decodeStrictBase64, pngProblem } from '#shared/node/idea-store/screenshots.js';
import { pngSize } from '#shared/png-header.js';

/** Decodes the extension's base64 PNG and reads its size from the IHDR chunk (never trusting the sender). */
export function decodePng(base64: string): { bytes: Buffer; width: number; height: number } {
  const bytes = decodeStrictBase64(base64);
  const problem = bytes === null ? 'is not valid base64' : pngProblem(bytes);
  const size = bytes === null ? null : pngSize(bytes);
  if (bytes === null || problem !== null || size === null) {
    throw new XipeError('INTERNAL_ERROR', `The extension sent a screenshot that ${problem ?? 'is invalid'}.`);
  }
  return { bytes, ...size };
}
