import type { ResourceType } from '#shared/deep-capture/area-capture.js';
import { contentHashName, type ResourceKind, sniffResource } from '#shared/deep-capture/resource-names.js';
import { SvgRejectedError } from '#shared/deep-capture/svg-sanitize.js';
import { loadSvgSanitizer } from '#shared/node/svg-sanitizer.js';

/**
 * What the host makes of a resource's bytes before anything is written: its type judged from the
 * bytes (an HTML error page or a script is refused whatever its URL said), SVG rewritten without
 * anything that can run or reach out, per-file and per-capture caps, and the content-hash name
 * (so identical bytes are one file across areas and sessions). Nothing here touches the disk.
 */

/** Largest total of resource bytes one area may add (shared with the toolbar, which stages no more). */
export { MAX_AREA_RESOURCE_BYTES } from '#shared/commands/fetch-resource.js';

export interface PreparedFile {
  src: string;
  kind: ResourceKind;
  /** Content-hash file name, e.g. `3fa2c4d1e0b9a8f7c6d5.woff2`. */
  name: string;
  bytes: Uint8Array;
}

export interface SkippedResource {
  src: string;
  reason: string;
}

/** Decodes a `data:` URL (base64 or percent-encoded); null when malformed. */
export function decodeDataUrl(url: string): Uint8Array | null {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma === -1) return null;
  const meta = url.slice(5, comma);
  const body = url.slice(comma + 1);
  try {
    if (meta.endsWith(';base64')) return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    return Buffer.from(decodeURIComponent(body), 'utf8');
  } catch {
    return null;
  }
}

const KINDS_FOR: Record<ResourceType, readonly ResourceKind[]> = {
  image: ['image', 'svg'],
  svg: ['svg', 'image'],
  font: ['font'],
};

/** The file to write for `bytes` fetched from `src`, or why it is left out. */
export async function prepareFile(
  src: string,
  expected: ResourceType,
  bytes: Uint8Array,
  maxBytes: number,
): Promise<PreparedFile | SkippedResource> {
  if (bytes.length > maxBytes) return { src, reason: `larger than the ${maxBytes}-byte cap per file` };
  const sniffed = sniffResource(bytes);
  if (sniffed === null) return { src, reason: 'not an image or a font (judged by its bytes)' };
  if (!KINDS_FOR[expected].includes(sniffed.kind)) {
    return { src, reason: `used as ${expected} but its bytes are ${sniffed.mime}` };
  }
  let data = bytes;
  if (sniffed.kind === 'svg') {
    try {
      // The same sanitizer as the clone's SVG: a written file is opened from disk as well.
      const svg = await loadSvgSanitizer();
      data = new TextEncoder().encode(svg.sanitize(new TextDecoder().decode(bytes)));
    } catch (err) {
      return { src, reason: err instanceof SvgRejectedError ? err.message : 'unreadable SVG' };
    }
  }
  return { src, kind: sniffed.kind, name: await contentHashName(data, sniffed), bytes: data };
}

export function isPrepared(value: PreparedFile | SkippedResource): value is PreparedFile {
  return 'bytes' in value;
}

/**
 * How a resource's origin is shown in the files and the tool's answer: a `data:` URL (which can
 * be the whole image) by its type and length, any other URL as is up to 512 characters.
 */
export function displaySrc(url: string): string {
  if (url.startsWith('data:')) {
    const head = url.slice(0, Math.min(url.indexOf(','), 60));
    return `${head},… (${url.length} characters)`;
  }
  return url.length > 512 ? `${url.slice(0, 511)}…` : url;
}
