import { SAVE_AREA, SaveAreaResult } from '#shared/commands/save-area.js';
import type { CollectedColor, CollectedElement } from '#shared/toolbar-messages.js';
import type { CollectionStore } from './collection-store.js';
import type { HostLink } from './host-link.js';

/**
 * Save, deep captures first: each item's staged capture goes through the host's `save_area` (the
 * `capture_area` pipeline: the host asks the worker for the capture and each file by item key,
 * judges the bytes and writes the area under the idea lock), then the session points at the files.
 * Where an area landed is remembered on its item at once, so a Save retried after a later step
 * failed replaces that area instead of adding another.
 */

/** What a session element's `extracted_assets.deep_capture` holds; paths relative to `uiux-references/`. */
export interface DeepAssets {
  area_id: string;
  instruction: string;
  element_count: number;
  resource_count: number;
  files: { referenced_elements: string; structure_html: string; styles_css: string; screenshot: string };
  /** How many files the host left out, and a few of them with why (shortened, quoted). */
  skipped_count?: number;
  skipped_examples?: { src: string; reason: string }[];
}

export interface SaveTarget {
  workspace?: string | undefined;
  idea_folder: string;
}

const AREA_TIMEOUT_MS = 60_000;

/** The host's absolute paths, relative to the idea's `uiux-references/` (where the screenshot's folder is). */
function relativeFiles(files: SaveAreaResult['files']): DeepAssets['files'] {
  const refs = files.screenshot.replace(/[\\/]screenshots[\\/][^\\/]+$/, '');
  const rel = (p: string) => (p.startsWith(refs) ? p.slice(refs.length + 1) : p).replaceAll('\\', '/');
  return {
    referenced_elements: rel(files.referenced_elements),
    structure_html: rel(files.structure_html),
    styles_css: rel(files.styles_css),
    screenshot: rel(files.screenshot),
  };
}

export async function saveAreas(args: {
  host: HostLink;
  store: CollectionStore;
  tabId: number;
  elements: readonly CollectedElement[];
  /** The session's colours: their roles win in the areas' tokens over the guessed ones. */
  colors: readonly CollectedColor[];
  target: SaveTarget;
}): Promise<Map<string, DeepAssets>> {
  const { host, store, tabId, target } = args;
  const colorRoles = args.colors.map((c) => ({ hex: c.hex, role: c.role }));
  const out = new Map<string, DeepAssets>();
  for (const item of args.elements) {
    const deep = item.deep;
    if (!deep) continue;
    const again =
      deep.saved?.idea_folder === target.idea_folder && deep.saved.workspace === target.workspace
        ? deep.saved.area_id
        : undefined;
    const result = SaveAreaResult.parse(
      await host.request(
        SAVE_AREA,
        {
          ...(target.workspace ? { workspace: target.workspace } : {}),
          idea_folder: target.idea_folder,
          staged: item.key,
          instruction: deep.instruction,
          ...(colorRoles.length > 0 ? { color_roles: colorRoles } : {}),
          ...(again ? { area_id: again } : {}),
          timeout_ms: AREA_TIMEOUT_MS,
        },
        AREA_TIMEOUT_MS + 5_000,
      ),
    );
    await store.setDeep(tabId, item.key, {
      ...deep,
      saved: {
        idea_folder: target.idea_folder,
        ...(target.workspace ? { workspace: target.workspace } : {}),
        area_id: result.area_id,
      },
    });
    out.set(item.key, {
      area_id: result.area_id,
      instruction: deep.instruction,
      element_count: result.element_count,
      resource_count: result.resource_count,
      files: relativeFiles(result.files),
      ...(result.skipped_count > 0
        ? { skipped_count: result.skipped_count, skipped_examples: result.skipped_examples }
        : {}),
    });
  }
  return out;
}
