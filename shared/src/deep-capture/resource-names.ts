/**
 * What a fetched resource really is, judged by its bytes (never by its URL or the server's
 * Content-Type), and the content-hash file name it is stored under: identical bytes get one file
 * however many areas, sessions or URLs use them, and a name can never collide with different
 * content. Browser-safe (Web Crypto), so the extension and the host name files the same way.
 */

import { PNG_SIGNATURE } from '../png-header.js';

export type ResourceKind = 'image' | 'font' | 'svg';

export interface SniffedResource {
  mime: string;
  ext: string;
  kind: ResourceKind;
}

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, start + length));

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0): boolean =>
  sig.every((b, i) => bytes[at + i] === b);

/** The resource type its first bytes prove, or null for anything else (HTML, scripts, unknown). */
export function sniffResource(bytes: Uint8Array): SniffedResource | null {
  if (startsWith(bytes, PNG_SIGNATURE)) {
    return { mime: 'image/png', ext: 'png', kind: 'image' };
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg', kind: 'image' };
  const head = ascii(bytes, 0, 12);
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a'))
    return { mime: 'image/gif', ext: 'gif', kind: 'image' };
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP')
    return { mime: 'image/webp', ext: 'webp', kind: 'image' };
  if (head.slice(4, 8) === 'ftyp' && /^(avif|avis)$/.test(head.slice(8, 12))) {
    return { mime: 'image/avif', ext: 'avif', kind: 'image' };
  }
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length > 6) {
    return { mime: 'image/x-icon', ext: 'ico', kind: 'image' };
  }
  if (head.startsWith('wOF2')) return { mime: 'font/woff2', ext: 'woff2', kind: 'font' };
  if (head.startsWith('wOFF')) return { mime: 'font/woff', ext: 'woff', kind: 'font' };
  if (head.startsWith('OTTO')) return { mime: 'font/otf', ext: 'otf', kind: 'font' };
  if (startsWith(bytes, [0x00, 0x01, 0x00, 0x00]) || head.startsWith('true')) {
    return { mime: 'font/ttf', ext: 'ttf', kind: 'font' };
  }
  if (looksLikeSvg(bytes)) return { mime: 'image/svg+xml', ext: 'svg', kind: 'svg' };
  return null;
}

/** Text whose first element (after a BOM, an XML declaration, comments or a doctype) is `<svg`. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 4096));
  } catch {
    // A multi-byte character cut at 4096 bytes is fine; invalid UTF-8 before that is not.
    if (bytes.length <= 4096) return false;
    text = new TextDecoder('utf-8').decode(bytes.subarray(0, 4096));
  }
  const rest = text
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^>]*\?>/, '')
    .replace(/^(\s*(<!--[\s\S]*?-->|<!DOCTYPE[^>]*>))*/i, '')
    .trimStart();
  return /^<svg[\s>/]/i.test(rest);
}

/** `sha256-hex prefix.ext`: 20 hex digits (80 bits) are plenty for one idea's resources. */
export async function contentHashName(bytes: Uint8Array, sniffed: SniffedResource): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  const hex = Array.from(digest.subarray(0, 10), (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex}.${sniffed.ext}`;
}
