import fs from 'node:fs/promises';
import path from 'node:path';
import type { AreaCapture } from '../../../shared/src/deep-capture/area-capture.js';
import { areaTokens } from '../../../shared/src/deep-capture/area-tokens.js';
import { buildClone } from '../../../shared/src/deep-capture/clone/index.js';
import {
  type LocalResource,
  mergeReferencedElements,
  nextAreaId,
  REFERENCED_ELEMENTS_FILE,
  ReferencedElements,
  toReferencedArea,
} from '../../../shared/src/deep-capture/referenced-elements.js';
import { renderSummary, SUMMARY_FILE } from '../../../shared/src/deep-capture/summary.js';
import { XipeError } from '../../../shared/src/errors.js';
import { toWriteError, writeFileAtomic } from '../../../shared/src/node/atomic-write.js';
import { withIdeaLock } from '../../../shared/src/node/idea-store/lock.js';
import { preparePlainSubdir, type SafeDirs } from '../../../shared/src/node/idea-store/path-safety.js';
import { displaySrc, type PreparedFile } from './resource-files.js';

/**
 * Writes one captured area into an idea (DESIGN §7), under the idea lock and inside the idea's
 * `uiux-references/` only (its folders checked like the store's own): the resources under their
 * content-hash names (an existing one is the same bytes, so it is kept), the clone, the area's
 * screenshot, `referenced-elements.json` (the area replaced or added, static resources merged)
 * and the summary. Every file is written atomically; if any write fails, the files this save
 * replaced get their previous bytes back, so an idea holds the old area or the new one.
 */

export const PAGE_REFERENCES_DIR = 'page-element-references';
export const RESOURCES_DIR = 'resources';

export interface AreaWrite {
  dirs: SafeDirs;
  ideaFolder: string;
  capture: AreaCapture;
  png: Buffer;
  areaId: string | null;
  instruction: string;
  /** Files by original URL. */
  files: ReadonlyMap<string, PreparedFile>;
  /** Pixel images by node index. */
  pixelFiles: ReadonlyMap<number, PreparedFile>;
  now: Date;
}

export interface AreaWritten {
  areaId: string;
  elementCount: number;
  files: { referenced_elements: string; structure_html: string; styles_css: string; screenshot: string };
  resources: { type: string; src: string; local_path: string; bytes: number }[];
}

async function readReferenced(file: string): Promise<ReferencedElements | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw toWriteError(file, err);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = ReferencedElements.safeParse(parsed);
  if (!result.success) {
    throw new XipeError(
      'VALIDATION_ERROR',
      `${file} is not a valid referenced-elements 3.0 file, so it was left as it is and nothing was saved. Fix it (or move it away) and capture again.`,
      { path: file },
    );
  }
  return result.data;
}

/** Writes a content-addressed file unless it is there already (same name, same bytes). */
async function writeShared(file: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeFileAtomic(file, bytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw toWriteError(file, err);
  }
}

type Previous = { file: string; bytes: Buffer | null };

async function remember(files: string[]): Promise<Previous[]> {
  return Promise.all(files.map(async (file) => ({ file, bytes: await fs.readFile(file).catch(() => null) })));
}

async function restore(previous: Previous[]): Promise<void> {
  for (const { file, bytes } of previous) {
    if (bytes === null) await fs.rm(file, { force: true }).catch(() => undefined);
    else await writeFileAtomic(file, bytes, { overwrite: true }).catch(() => undefined);
  }
}

export async function writeArea(w: AreaWrite): Promise<AreaWritten> {
  return withIdeaLock(w.dirs.refsDir, async () => {
    const pageRefs = await preparePlainSubdir(w.dirs.refsDir, PAGE_REFERENCES_DIR, `${PAGE_REFERENCES_DIR}/`);
    const resources = await preparePlainSubdir(
      pageRefs,
      RESOURCES_DIR,
      `${PAGE_REFERENCES_DIR}/${RESOURCES_DIR}/`,
    );
    const referencedFile = path.join(pageRefs, REFERENCED_ELEMENTS_FILE);
    const existing = await readReferenced(referencedFile);
    const areaId = w.areaId ?? nextAreaId(existing);

    for (const file of [...w.files.values(), ...w.pixelFiles.values()]) {
      await writeShared(path.join(resources, file.name), file.bytes);
    }
    const local = new Map<string, LocalResource>(
      [...w.files.values()].map((f) => [
        f.src,
        { type: f.kind, src: f.src, local_path: `${RESOURCES_DIR}/${f.name}` },
      ]),
    );
    const clone = buildClone(w.capture, {
      areaId,
      resourcePath: (url) => w.files.get(url)?.name ?? null,
      pixelPath: (i) => w.pixelFiles.get(i)?.name ?? null,
    });
    const screenshotRel = `screenshots/${areaId}.png`;
    const area = {
      ...toReferencedArea(w.capture, {
        areaId,
        instruction: w.instruction,
        screenshot: screenshotRel,
        names: clone.names,
        resources: local,
        pixelResource: (i) => {
          const f = w.pixelFiles.get(i);
          return f === undefined
            ? null
            : {
                type: 'image',
                src: `pixels of ${clone.names[i] ?? `node ${i}`}`,
                local_path: `${RESOURCES_DIR}/${f.name}`,
              };
        },
        clone: {
          structure_html: `${RESOURCES_DIR}/${clone.htmlFile}`,
          styles_css: `${RESOURCES_DIR}/${clone.cssFile}`,
        },
      }),
      source_url: w.capture.url,
      design_tokens: areaTokens(w.capture),
    };
    const merged = mergeReferencedElements(existing, {
      source_url: w.capture.url,
      timestamp: w.now.toISOString(),
      area,
      static_resources: [...local.values()].map((r) => ({ ...r, usage: areaId })),
    });
    const files = {
      referenced_elements: referencedFile,
      structure_html: path.join(resources, clone.htmlFile),
      styles_css: path.join(resources, clone.cssFile),
      screenshot: path.join(w.dirs.screenshotsDir, `${areaId}.png`),
    };
    const summaryFile = path.join(pageRefs, SUMMARY_FILE);
    const previous = await remember([...Object.values(files), summaryFile]);
    const write = (file: string, data: string | Uint8Array) =>
      writeFileAtomic(file, data, { overwrite: true }).catch((err: unknown) => {
        throw toWriteError(file, err);
      });
    try {
      await write(files.structure_html, clone.html);
      await write(files.styles_css, clone.css);
      await write(files.screenshot, w.png);
      await write(referencedFile, `${JSON.stringify(merged, null, 2)}\n`);
      await write(summaryFile, renderSummary(w.ideaFolder, merged));
    } catch (err) {
      await restore(previous);
      throw err;
    }
    return {
      areaId,
      elementCount: area.elements.length,
      files,
      resources: [...w.files.values()].map((f) => ({
        type: f.kind,
        src: displaySrc(f.src),
        local_path: `${RESOURCES_DIR}/${f.name}`,
        bytes: f.bytes.length,
      })),
    };
  });
}
