import fs from 'node:fs/promises';
import path from 'node:path';
import { queueFields } from '#shared/commands/capture-queue.js';
import type { ScreenshotMode } from '#shared/commands/capture-screenshot.js';
import { CAPTURE_SCREENSHOT, CaptureScreenshotResult } from '#shared/commands/capture-screenshot.js';
import {
  MAX_INLINE_PNG_BYTES,
  SaveScreenshotParams,
  type SaveScreenshotResult,
} from '#shared/commands/save-screenshot.js';
import { validationError, XipeError } from '#shared/errors.js';
import { toWriteError, writeFileAtomic } from '#shared/node/atomic-write.js';
import { withIdeaLock } from '#shared/node/idea-store/lock.js';
import {
  ELEMENT_CROP_PATTERN,
  FULL_PAGE_PATTERN,
  nextNumber,
  padNumber,
} from '#shared/node/idea-store/numbering.js';
import { ideaPaths, prepareIdeaDirs, workspaceRelative } from '#shared/node/idea-store/path-safety.js';
import { resolveWorkspace } from '#shared/node/idea-store/workspaces.js';
import { prepareOutputFile, resolveOutputPath } from '../screenshots/output-path.js';
import { decodePng } from '../screenshots/png-info.js';
import { passOn, requesterOf } from './queue-progress.js';
import type { HostHandler } from './types.js';
import { caller } from './workspace.js';

/** Where screenshots go when the agent names neither a path nor an idea. */
export const DEFAULT_SCREENSHOT_DIR = ['x-ipe-docs', 'screenshots'] as const;

const VIEWPORT_PATTERN = /^viewport-(\d{3,})\.png$/;
const SCREENSHOT_PATTERN = /^screenshot-(\d{3,})\.png$/;

/** The idea store's names, so a session can point at the file: elem-NNN-crop, full-page-NNN, viewport-NNN. */
export function ideaScreenshotName(mode: ScreenshotMode, n: number): string {
  if (mode === 'element') return `elem-${padNumber(n)}-crop.png`;
  if (mode === 'full_page') return `full-page-${padNumber(n)}.png`;
  return `viewport-${padNumber(n)}.png`;
}

function ideaPattern(mode: ScreenshotMode): RegExp {
  return mode === 'element'
    ? ELEMENT_CROP_PATTERN
    : mode === 'full_page'
      ? FULL_PAGE_PATTERN
      : VIEWPORT_PATTERN;
}

/** Writes `bytes` under the next free number in `dir`, never overwriting (EEXIST → next number). */
async function writeNumbered(
  dir: string,
  bytes: Buffer,
  pattern: RegExp,
  name: (n: number) => string,
): Promise<string> {
  const names = await fs.readdir(dir).catch((err: unknown) => {
    throw toWriteError(dir, err);
  });
  for (let n = nextNumber(names, pattern); ; n += 1) {
    const file = path.join(dir, name(n));
    try {
      await writeFileAtomic(file, bytes);
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw toWriteError(file, err);
    }
  }
}

/**
 * `save_screenshot` (the `capture_screenshot` MCP tool): checks where the file will go before
 * anything is captured, asks the extension for the PNG, then writes it atomically — into the
 * workspace, or into the idea's screenshots folder under the idea lock (the host is the only
 * writer of idea folders).
 */
export const saveScreenshotHandler: HostHandler = async (params, ctx): Promise<SaveScreenshotResult> => {
  const parsed = SaveScreenshotParams.safeParse(params ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'capture_screenshot arguments', params ?? {});
  const p = parsed.data;
  const workspace = resolveWorkspace(caller(ctx));
  // Refused destinations are refused before the browser is asked for anything.
  const outputFile =
    p.output_path !== undefined
      ? await prepareOutputFile(workspace, resolveOutputPath(workspace, p.output_path), p.output_path)
      : null;
  const ideaDirs =
    p.idea_folder !== undefined
      ? await prepareIdeaDirs(ideaPaths(workspace, p.idea_folder), p.idea_folder)
      : null;
  let defaultDir: string | null = null;
  if (outputFile === null && ideaDirs === null) {
    const placeholder = path.join(...DEFAULT_SCREENSHOT_DIR, 'screenshot.png');
    defaultDir = path.dirname(
      await prepareOutputFile(workspace, resolveOutputPath(workspace, placeholder), placeholder),
    );
  }

  const target = {
    ...(p.tab_id !== undefined ? { tab_id: p.tab_id } : {}),
    ...(p.url_contains !== undefined ? { url_contains: p.url_contains } : {}),
  };
  const raw = await ctx.extension.request(
    CAPTURE_SCREENSHOT,
    {
      mode: p.mode,
      ...(p.selector !== undefined ? { selector: p.selector } : {}),
      target,
      ...requesterOf(ctx),
    },
    { timeoutMs: p.timeout_ms, signal: ctx.signal, onProgress: passOn(ctx) },
  );
  const shot = CaptureScreenshotResult.safeParse(raw);
  if (!shot.success) {
    throw new XipeError(
      'PROTOCOL_ERROR',
      'The extension answered capture_screenshot with an invalid result. Use the same x-ipe-uiux version for the extension and the host.',
    );
  }
  const png = decodePng(shot.data.png);

  let file: string;
  if (outputFile !== null) {
    file = outputFile;
    await writeFileAtomic(file, png.bytes, { overwrite: true }).catch((err: unknown) => {
      throw toWriteError(outputFile, err);
    });
  } else if (ideaDirs !== null) {
    const dir = ideaDirs.screenshotsDir;
    file = await withIdeaLock(ideaDirs.refsDir, () =>
      writeNumbered(dir, png.bytes, ideaPattern(p.mode), (n) => ideaScreenshotName(p.mode, n)),
    );
  } else {
    const dir = defaultDir ?? workspace;
    file = await writeNumbered(dir, png.bytes, SCREENSHOT_PATTERN, (n) => `screenshot-${padNumber(n)}.png`);
  }
  ctx.logger.info('screenshot written', { mode: p.mode, bytes: png.bytes.length, file });

  const result: SaveScreenshotResult = {
    path: file,
    relative_path: workspaceRelative(await fs.realpath(workspace).catch(() => workspace), file),
    width: png.width,
    height: png.height,
    bytes: png.bytes.length,
    mode: p.mode,
    tab: shot.data.tab,
    ...(shot.data.capped_at !== undefined ? { capped_at: shot.data.capped_at } : {}),
    ...queueFields(shot.data.queue),
  };
  if (p.return_base64) {
    if (png.bytes.length <= MAX_INLINE_PNG_BYTES) result.base64 = shot.data.png;
    else
      result.base64_omitted = `The PNG is ${png.bytes.length} bytes, over the ${MAX_INLINE_PNG_BYTES}-byte limit for inline images; read it from ${file} instead (or capture an element).`;
  }
  return result;
};
