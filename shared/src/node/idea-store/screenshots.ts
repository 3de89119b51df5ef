import fs from 'node:fs/promises';
import path from 'node:path';
import { STAGED_PREFIX } from '../../commands/stage-image.js';
import { invalidInput } from '../../errors.js';
import { readPngHeader } from '../../png-header.js';
import { BASE64_PREFIX, type Element, type ReferenceData } from '../../reference-data.js';
import { makeIssue } from '../../validation-issues.js';
import { writeFileAtomic } from '../atomic-write.js';
import {
  ELEMENT_CROP_PATTERN,
  elementCropFileName,
  FULL_PAGE_PATTERN,
  fullPageFileName,
  nextNumber,
} from './numbering.js';
import { SCREENSHOTS_DIR } from './path-safety.js';

/**
 * `base64:` screenshots (docs/architecture.md, The idea store): strictly decoded, checked to be a PNG, written as
 * `screenshots/full-page-NNN.png` / `screenshots/elem-NNN-crop.png` (next free number of that
 * kind, never overwriting) and replaced by that relative path. Other strings and null are kept.
 */

/** A stored PNG holds at least its signature and a whole IHDR chunk (length, type, 13 bytes, CRC). */
const MIN_PNG_BYTES = 8 + 4 + 4 + 13 + 4;

export type ScreenshotKind = 'full_page' | 'element_crop';

/**
 * Strict base64 → bytes: standard alphabet, length a multiple of 4, padding only at the end, no
 * whitespace. Node's decoder silently skips bad characters, so the decoded length is compared
 * with the length the text must produce.
 */
export function decodeStrictBase64(body: string): Buffer | null {
  if (body.length === 0 || body.length % 4 !== 0) return null;
  if (body.includes('-') || body.includes('_')) return null;
  const pad = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  const bytes = Buffer.from(body, 'base64');
  return bytes.length === (body.length / 4) * 3 - pad ? bytes : null;
}

/** Why `bytes` is not a PNG image, or null. */
export function pngProblem(bytes: Uint8Array): string | null {
  if (bytes.length < MIN_PNG_BYTES) return 'is not a PNG image (too short)';
  const header = readPngHeader(bytes);
  return header.ok ? null : `is not a PNG image (${header.problem})`;
}

export interface PendingScreenshot {
  elementIndex: number;
  kind: ScreenshotKind;
  field: string;
  bytes: Buffer;
}

/** Looks up an image the extension staged for this save (`staged:<id>`); null when it has none. */
export type StagedImageSource = (id: string) => Buffer | null;

/**
 * Decodes and checks every `base64:` screenshot before anything is written. With `staged` (the
 * extension's own saves), a `staged:<id>` value is the image it sent on its own beforehand.
 */
export function decodeScreenshots(data: ReferenceData, staged?: StagedImageSource): PendingScreenshot[] {
  const pending: PendingScreenshot[] = [];
  data.elements?.forEach((element, elementIndex) => {
    for (const kind of ['full_page', 'element_crop'] as const) {
      const value = element.screenshots?.[kind];
      const field = `elements.${elementIndex}.screenshots.${kind}`;
      if (staged && typeof value === 'string' && value.startsWith(STAGED_PREFIX)) {
        const bytes = staged(value.slice(STAGED_PREFIX.length));
        if (bytes === null) {
          const issue = makeIssue(field, 'an image staged on this host', value, 'no such staged image');
          throw invalidInput([issue], 'reference data', {
            hint: 'The host restarted or the image expired: save again.',
          });
        }
        pending.push({ elementIndex, kind, field, bytes });
        continue;
      }
      if (typeof value !== 'string' || !value.startsWith(BASE64_PREFIX)) continue;
      const bytes = decodeStrictBase64(value.slice(BASE64_PREFIX.length));
      const problem =
        bytes === null ? 'is not valid base64 (standard alphabet, padded, no spaces)' : pngProblem(bytes);
      if (problem !== null || bytes === null) {
        const issue = makeIssue(field, 'a base64 PNG image after "base64:"', value, problem ?? undefined);
        throw invalidInput([issue], 'reference data');
      }
      pending.push({ elementIndex, kind, field, bytes });
    }
  });
  return pending;
}

export interface WrittenScreenshots {
  /** The data with each `base64:` value replaced by `screenshots/<file>`. */
  data: ReferenceData;
  /** Absolute paths written, for cleanup if the save fails later. */
  files: string[];
}

/**
 * Writes the decoded screenshots into `screenshotsDir` (caller holds the idea lock). A name taken
 * meanwhile (EEXIST) moves on to the next number; on any other failure the files written so far
 * are removed and the error is rethrown.
 */
export async function writeScreenshots(
  data: ReferenceData,
  pending: PendingScreenshot[],
  screenshotsDir: string,
): Promise<WrittenScreenshots> {
  if (pending.length === 0) return { data, files: [] };
  const names = await fs.readdir(screenshotsDir);
  const next: Record<ScreenshotKind, number> = {
    full_page: nextNumber(names, FULL_PAGE_PATTERN),
    element_crop: nextNumber(names, ELEMENT_CROP_PATTERN),
  };
  const elements: Element[] = (data.elements ?? []).map((element) =>
    element.screenshots ? { ...element, screenshots: { ...element.screenshots } } : element,
  );
  const files: string[] = [];
  try {
    for (const shot of pending) {
      for (;;) {
        const n = next[shot.kind];
        next[shot.kind] = n + 1;
        const name = shot.kind === 'full_page' ? fullPageFileName(n) : elementCropFileName(n);
        const file = path.join(screenshotsDir, name);
        try {
          await writeFileAtomic(file, shot.bytes, { syncDir: false });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw Object.assign(err as Error, { target: file });
        }
        files.push(file);
        const screenshots = elements[shot.elementIndex]?.screenshots;
        if (screenshots) screenshots[shot.kind] = `${SCREENSHOTS_DIR}/${name}`;
        break;
      }
    }
  } catch (err) {
    await removeFiles(files);
    throw err;
  }
  return { data: { ...data, elements }, files };
}

export async function removeFiles(files: readonly string[]): Promise<void> {
  await Promise.all(files.map((file) => fs.rm(file, { force: true }).catch(() => undefined)));
}
