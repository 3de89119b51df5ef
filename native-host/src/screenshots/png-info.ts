import { XipeError } from '../../../shared/src/errors.js';
import { decodeStrictBase64, pngProblem } from '../../../shared/src/node/idea-store/screenshots.js';

/** Decodes the extension's base64 PNG and reads its size from the IHDR chunk (never trusting the sender). */
export function decodePng(base64: string): { bytes: Buffer; width: number; height: number } {
  const bytes = decodeStrictBase64(base64);
  const problem = bytes === null ? 'is not valid base64' : pngProblem(bytes);
  if (bytes === null || problem !== null) {
    throw new XipeError('INTERNAL_ERROR', `The extension sent a screenshot that ${problem ?? 'is invalid'}.`);
  }
  return { bytes, width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
