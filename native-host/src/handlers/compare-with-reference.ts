import fs from 'node:fs/promises';
import path from 'node:path';
import {
  CompareWithReferenceParams,
  type CompareWithReferenceResult,
} from '#shared/commands/compare-with-reference.js';
import { RENDER_CANDIDATE, RenderCandidateResult } from '#shared/commands/render-candidate.js';
import type { ReferencedArea } from '#shared/deep-capture/referenced-elements.js';
import { invalidField, validationError, XipeError } from '#shared/errors.js';
import { pageFiles, readReferencedFile } from '#shared/node/idea-store/page-references.js';
import { ideaPaths, isWithin, prepareIdeaDirs } from '#shared/node/idea-store/path-safety.js';
import { resolveWorkspace } from '#shared/node/idea-store/workspaces.js';
import { decodePng } from '../screenshots/png-info.js';
import { compare } from '../verify/compare.js';
import { fromCandidate, fromReference } from '../verify/model.js';
import { decodeRgba, encodeRgba, type Rgba } from '../verify/pixels.js';
import { writeReport } from '../verify/report-files.js';
import { candidateFile, serveCandidate } from '../verify/serve-candidate.js';
import { passOn, requesterOf } from './queue-progress.js';
import type { HostHandler, HostHandlerContext } from './types.js';
import { caller } from './workspace.js';

/**
 * `compare_with_reference` (DESIGN §8): resolves the reference (a deep-captured area with its
 * elements, or a screenshot) and the candidate (a workspace file, served for this call only, or a
 * loopback URL) before the browser is asked for anything; has the extension render the candidate
 * (`render_candidate`); compares; writes `uiux-references/verify/<id>-<n>/`; answers small.
 */

const WHAT = 'compare_with_reference arguments';
const ANSWER_DIFFERENCES = 5;

export interface Reference {
  id: string;
  png: Buffer;
  area: ReferencedArea | null;
  /** Device px of the PNG (from its header). */
  pixelWidth: number;
  pixelHeight: number;
  /** CSS px. */
  width: number;
  height: number;
  scale: number;
  viewportWidth: number | null;
  viewportHeight: number | null;
}

async function realInside(root: string, relative: string, field: string, expected: string): Promise<string> {
  const lexical = path.resolve(root, relative);
  const real = await fs.realpath(lexical).catch(() => null);
  if (real === null || !isWithin(root, real)) throw invalidField(field, expected, relative, WHAT);
  return real;
}

export async function areaReference(
  refsDir: string,
  areaId: string,
  dpr: number | undefined,
): Promise<Reference> {
  const file = pageFiles(refsDir).referenced;
  const referenced = await readReferencedFile(file);
  const area = referenced?.areas.find((a) => a.area_id === areaId);
  if (area === undefined) {
    const known = referenced?.areas.map((a) => a.area_id) ?? [];
    throw invalidField(
      'area_id',
      known.length > 0
        ? `one of the idea's captured areas (${known.join(', ')})`
        : 'a captured area (the idea has none yet: run capture_area first)',
      areaId,
      WHAT,
    );
  }
  if (area.screenshot === null || area.selected_area_bounding_box === null)
    throw invalidField('area_id', 'an area with a screenshot and a bounding box', areaId, WHAT);
  const shot = await realInside(
    refsDir,
    area.screenshot,
    'area_id',
    `an area whose screenshot exists under uiux-references/`,
  );
  const png = await fs.readFile(shot);
  const size = decodePng(png.toString('base64'));
  const box = area.selected_area_bounding_box;
  const viewport = area.viewport as { width?: unknown; height?: unknown } | undefined;
  // Within what render_candidate takes; a viewport outside it is left to the defaults.
  const cssPx = (v: unknown, max: number) =>
    typeof v === 'number' && v >= 100 && v <= max ? Math.round(v) : null;
  return {
    id: areaId,
    png,
    area,
    pixelWidth: size.width,
    pixelHeight: size.height,
    width: box.width,
    height: box.height,
    scale: dpr ?? size.width / Math.max(1, box.width),
    viewportWidth: cssPx(viewport?.width, 4096),
    viewportHeight: cssPx(viewport?.height, 8192),
  };
}

async function screenshotReference(
  refsDir: string,
  relative: string,
  dpr: number | undefined,
): Promise<Reference> {
  const file = await realInside(refsDir, relative, 'screenshot', "a PNG under the idea's uiux-references/");
  const png = await fs.readFile(file);
  const size = decodePng(png.toString('base64'));
  const scale = dpr ?? 1;
  return {
    id: path.basename(file, path.extname(file)),
    png,
    area: null,
    pixelWidth: size.width,
    pixelHeight: size.height,
    width: size.width / scale,
    height: size.height / scale,
    scale,
    viewportWidth: null,
    viewportHeight: null,
  };
}

async function render(
  ctx: HostHandlerContext,
  params: unknown,
  timeoutMs: number,
): Promise<RenderCandidateResult> {
  const raw = await ctx.extension.request(
    RENDER_CANDIDATE,
    { ...(params as object), ...requesterOf(ctx) },
    { timeoutMs, signal: ctx.signal, onProgress: passOn(ctx) },
  );
  const parsed = RenderCandidateResult.safeParse(raw);
  if (!parsed.success)
    throw new XipeError(
      'PROTOCOL_ERROR',
      'The extension answered render_candidate with an invalid result. Use the same x-ipe-uiux version for the extension and the host.',
    );
  return parsed.data;
}

export const compareWithReferenceHandler: HostHandler = async (
  params,
  ctx,
): Promise<CompareWithReferenceResult> => {
  const started = performance.now();
  const hostTimings: Record<string, number> = {};
  const lap = (name: string) => {
    hostTimings[name] = Math.round(performance.now() - started);
  };
  const parsed = CompareWithReferenceParams.safeParse(params ?? {});
  if (!parsed.success) throw validationError(parsed.error, WHAT, params ?? {});
  const p = parsed.data;
  const workspace = resolveWorkspace({ ...caller(ctx), requested: p.workspace });
  const dirs = await prepareIdeaDirs(ideaPaths(workspace, p.idea_folder), p.idea_folder);
  const reference =
    p.area_id !== undefined
      ? await areaReference(dirs.refsDir, p.area_id, p.dpr)
      : await screenshotReference(dirs.refsDir, p.screenshot ?? '', p.dpr);
  let refImage: Rgba;
  const file = p.file_path !== undefined ? await candidateFile(workspace, p.file_path) : null;
  const served = file !== null ? await serveCandidate(workspace, file) : null;
  let rendered: RenderCandidateResult;
  lap('asked');
  try {
    const rendering = render(
      ctx,
      {
        url: served?.url ?? p.url,
        viewport_width:
          p.viewport_width ?? reference.viewportWidth ?? Math.max(1280, Math.ceil(reference.width)),
        viewport_height: reference.viewportHeight,
        width: reference.width,
        height: reference.height,
        selector: p.selector ?? null,
        out_width: reference.pixelWidth,
        out_height: reference.pixelHeight,
        timeout_ms: p.timeout_ms,
      },
      p.timeout_ms,
    );
    // Decoded while the browser renders (the request is on its way).
    rendering.catch(() => undefined);
    refImage = decodeRgba(reference.png);
    lap('reference');
    rendered = await rendering;
  } finally {
    await served?.close();
  }
  lap('rendered');
  const candidatePng = decodePng(rendered.png).bytes;
  const candidateImage = decodeRgba(candidatePng);
  lap('decoded');
  const result = compare({
    lap,
    reference: refImage,
    candidate: candidateImage,
    size: { width: reference.width, height: reference.height },
    referenceElements: reference.area === null ? null : fromReference(reference.area),
    candidateElements: fromCandidate(rendered.elements),
  });
  const diffPng = encodeRgba(result.diff);
  lap('diff_encoded');
  const candidateName =
    file !== null ? path.relative(workspace, file).split(path.sep).join('/') : (p.url ?? '');
  const files = await writeReport(
    dirs.refsDir,
    reference.id,
    { candidate: candidatePng, diff: diffPng },
    {
      reference: reference.id,
      candidate: candidateName,
      scores: result.scores,
      found: result.found,
      notes: rendered.notes,
      viewport: rendered.viewport,
      region: rendered.region,
      timings: {
        ...Object.fromEntries(Object.entries(rendered.timings ?? {}).map(([k, v]) => [`extension_${k}`, v])),
        ...hostTimings,
      },
      elements: {
        reference: reference.area?.elements.length ?? 0,
        candidate: rendered.elements.length,
        matched: result.matched,
      },
    },
  );
  ctx.logger.info('candidate compared', {
    idea: p.idea_folder,
    reference: reference.id,
    scores: result.scores,
    differences: result.found.differences.length,
    extension: rendered.timings,
    host: hostTimings,
    elapsed_ms: Math.round(performance.now() - started),
  });
  ctx.events.record?.('verify_report_saved', {
    tab_id: rendered.tab_id,
    page_url: candidateName,
    at: new Date().toISOString(),
    idea_folder: p.idea_folder,
    reference: reference.id,
    scores: result.scores,
    files: {
      report_json: files.report_json,
      report_md: files.report_md,
      diff: files.diff,
      candidate: files.candidate,
    },
  });
  return {
    status: 'success',
    reference: reference.id,
    scores: result.scores,
    differences: result.found.differences.slice(0, ANSWER_DIFFERENCES).map((d) => d.text.slice(0, 240)),
    difference_count: result.found.differences.length,
    files: {
      candidate: files.candidate,
      diff: files.diff,
      report_json: files.report_json,
      report_md: files.report_md,
    },
    ...(rendered.notes.length > 0 ? { notes: rendered.notes.slice(0, 3).map((n) => n.slice(0, 300)) } : {}),
    elapsed_ms: Math.round(performance.now() - started),
  };
};
