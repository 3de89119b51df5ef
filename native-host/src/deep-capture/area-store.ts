import fs from 'node:fs/promises';
import path from 'node:path';
import type { AreaCapture } from '#shared/deep-capture/area-capture.js';
import { areaTokens } from '#shared/deep-capture/area-tokens.js';
import type { DesignerColor } from '#shared/deep-capture/designer-roles.js';
import { type LocalResource, toReferencedArea } from '#shared/deep-capture/referenced-area.js';
import {
  mergeReferencedElements,
  nextAreaId,
  type ReferencedArea,
} from '#shared/deep-capture/referenced-elements.js';
import type { SvgSanitizer } from '#shared/deep-capture/svg-sanitize.js';
import { fsyncDir, toWriteError, writeFileAtomic } from '#shared/node/atomic-write.js';
import { withIdeaLock } from '#shared/node/idea-store/lock.js';
import {
  PAGE_REFERENCES_DIR,
  pageFiles,
  RESOURCES_DIR,
  readReferencedFile,
  sessionTokens,
  writeReferenced,
  writeTokensFile,
} from '#shared/node/idea-store/page-references.js';
import { preparePlainSubdir, type SafeDirs } from '#shared/node/idea-store/path-safety.js';
import { restoreSnapshot, snapshotFiles } from '#shared/node/idea-store/snapshot.js';
import { loadSvgSanitizer } from '#shared/node/svg-sanitizer.js';
import { buildClone } from './clone/index.js';
import { displaySrc, type PreparedFile } from './resource-files.js';

/**
 * Writes one captured area into an idea (docs/design.md §7), under the idea lock and inside the idea's
 * `uiux-references/` only (its folders checked like the store's own): the resources under their
 * content-hash names (an existing one is the same bytes, so it is kept), the clone, the area's
 * screenshot, `referenced-elements.json` (the area replaced or added, static resources merged)
 * and the summary. Every file is written atomically; if any write fails, the files this save
 * replaced get their previous bytes back, so an idea holds the old area or the new one.
 */

export interface AreaWrite {
  dirs: SafeDirs;
  ideaFolder: string;
  capture: AreaCapture;
  png: Buffer;
  areaId: string | null;
  instruction: string;
  /** The designer's colours and roles from the toolbar session (their roles win in the tokens). */
  colorRoles?: readonly DesignerColor[] | undefined;
  /** Files by original URL. */
  files: ReadonlyMap<string, PreparedFile>;
  /** Pixel images by node index. */
  pixelFiles: ReadonlyMap<number, PreparedFile>;
  now: Date;
  /** Computed ahead (projectAhead); recomputed when the area id turned out different. */
  projected?: AreaProjection | null;
}

export interface AreaWritten {
  areaId: string;
  elementCount: number;
  /** Every file the save wrote or rewrote, but the resources (listed apart). */
  files: {
    referenced_elements: string;
    structure_html: string;
    styles_css: string;
    screenshot: string;
    summary: string;
    /** Absent when no tokens were left to write (the file is then removed). */
    tokens?: string;
  };
  resources: { type: string; src: string; local_path: string; bytes: number }[];
}

/**
 * Writes a content-addressed file unless it is there already (same name, same bytes: an earlier
 * capture's, written atomically, so whole). The caller syncs the directory once for all of them.
 */
async function writeShared(file: string, bytes: Uint8Array): Promise<void> {
  const there = await fs.lstat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );
  if (there) return;
  try {
    await writeFileAtomic(file, bytes, { syncDir: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw toWriteError(file, err);
  }
}

/** What the area's files will hold once it is `areaId`: its resources, its clone, its JSON entry. */
export interface AreaProjection {
  areaId: string;
  local: Map<string, LocalResource>;
  clone: ReturnType<typeof buildClone>;
  area: ReferencedArea & { source_url: string; design_tokens: ReturnType<typeof areaTokens> };
}

type AreaContent = Pick<AreaWrite, 'capture' | 'instruction' | 'colorRoles' | 'files' | 'pixelFiles'>;

function projectArea(w: AreaContent, areaId: string, svg: SvgSanitizer): AreaProjection {
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
    svg,
  });
  const area = {
    ...toReferencedArea(w.capture, {
      areaId,
      instruction: w.instruction,
      screenshot: `screenshots/${areaId}.png`,
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
    design_tokens: areaTokens(w.capture, w.colorRoles),
  };
  return { areaId, local, clone, area };
}

/**
 * The projection computed ahead, outside the lock (while the screenshot is still being shot),
 * for the area id the idea's file gives now; writeArea uses it only if the id is still the one.
 */
export async function projectAhead(
  w: AreaContent & Pick<AreaWrite, 'dirs' | 'areaId'>,
): Promise<AreaProjection> {
  const existing = await readReferencedFile(pageFiles(w.dirs.refsDir).referenced).catch(() => null);
  return projectArea(w, w.areaId ?? nextAreaId(existing), await loadSvgSanitizer());
}

export async function writeArea(w: AreaWrite): Promise<AreaWritten> {
  return withIdeaLock(w.dirs.refsDir, async () => {
    const pageRefs = await preparePlainSubdir(w.dirs.refsDir, PAGE_REFERENCES_DIR, `${PAGE_REFERENCES_DIR}/`);
    const resources = await preparePlainSubdir(
      pageRefs,
      RESOURCES_DIR,
      `${PAGE_REFERENCES_DIR}/${RESOURCES_DIR}/`,
    );
    const page = pageFiles(w.dirs.refsDir);
    const existing = await readReferencedFile(page.referenced);
    const areaId = w.areaId ?? nextAreaId(existing);

    // Written side by side, each fsynced, then their directory once.
    await Promise.all(
      [...w.files.values(), ...w.pixelFiles.values()].map((file) =>
        writeShared(path.join(resources, file.name), file.bytes),
      ),
    );
    await fsyncDir(resources).catch((err: unknown) => {
      throw toWriteError(resources, err);
    });
    const { local, clone, area } =
      w.projected?.areaId === areaId ? w.projected : projectArea(w, areaId, await loadSvgSanitizer());
    const merged = mergeReferencedElements(existing, {
      source_url: w.capture.url,
      timestamp: w.now.toISOString(),
      areas: [area],
      static_resources: [...local.values()].map((r) => ({ ...r, usage: areaId })),
    });
    const files = {
      referenced_elements: page.referenced,
      structure_html: path.join(resources, clone.htmlFile),
      styles_css: path.join(resources, clone.cssFile),
      screenshot: path.join(w.dirs.screenshotsDir, `${areaId}.png`),
    };
    const previous = await snapshotFiles([...Object.values(files), page.summary, page.tokens]);
    let tokensWritten = false;
    const write = (file: string, data: string | Uint8Array) =>
      writeFileAtomic(file, data, { overwrite: true }).catch((err: unknown) => {
        throw toWriteError(file, err);
      });
    try {
      await write(files.structure_html, clone.html);
      await write(files.styles_css, clone.css);
      await write(files.screenshot, w.png);
      await writeReferenced(page, w.ideaFolder, merged);
      tokensWritten = await writeTokensFile(page.tokens, await sessionTokens(w.dirs.refsDir), merged.areas);
    } catch (err) {
      await restoreSnapshot(previous).catch(() => undefined); // the write's own error says more
      throw err;
    }
    return {
      areaId,
      elementCount: area.elements.length,
      files: { ...files, summary: page.summary, ...(tokensWritten ? { tokens: page.tokens } : {}) },
      resources: [...w.files.values()].map((f) => ({
        type: f.kind,
        src: displaySrc(f.src),
        local_path: `${RESOURCES_DIR}/${f.name}`,
        bytes: f.bytes.length,
      })),
    };
  });
}
