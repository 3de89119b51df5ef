import type { z } from 'zod';
import { LIST_IDEAS, ListIdeasResult } from '../../../../shared/src/commands/list-ideas.js';
import {
  NEXT_REFERENCE_IDS,
  NextReferenceIdsResult,
} from '../../../../shared/src/commands/next-reference-ids.js';
import {
  SAVE_REFERENCE,
  SaveReferenceParams,
  SaveReferenceResult,
} from '../../../../shared/src/commands/save-reference.js';
import { STAGE_IMAGE, STAGED_PREFIX, StageImageResult } from '../../../../shared/src/commands/stage-image.js';
import { DTCG_FILE } from '../../../../shared/src/design-tokens.js';
import { toErrorPayload, validationError, XipeError } from '../../../../shared/src/errors.js';
import {
  CAPTURE_EVENT_DATA,
  type CaptureEventName,
  type SaveOutcome,
  TOOLBAR_MESSAGE_PREFIX,
  ToolbarRequest,
  type ToolbarRequestType,
  type ToolbarResponse,
  type ToolbarResult,
} from '../../../../shared/src/toolbar-messages.js';
import type { StagedCaptures } from '../deep-capture/staged.js';
import type { CollectionStore, StoredCrop } from './collection-store.js';
import { saveAreas } from './deep-save.js';
import type { HostLink } from './host-link.js';
import { buildReferenceData } from './reference-builder.js';

/** What the toolbar's worker side uses; injected so the handler runs in unit tests with fakes. */
export interface ToolbarDeps {
  store: CollectionStore;
  /** Deep captures staged with their items until Save. */
  staged: Pick<StagedCaptures, 'take'>;
  host: HostLink;
  capture: {
    crop(
      tabId: number,
      rect: { x: number; y: number; width: number; height: number },
      viewport: {
        width: number;
        height: number;
        dpr: number;
      },
      windowId?: number,
    ): Promise<StoredCrop | null>;
    begin(tabId: number, width: number, height: number, left?: number): string;
    /** Rest-frame previews (capture/rest-frame.ts). */
    rest(
      tabId: number,
      windowId: number,
      viewport: { width: number; height: number; dpr: number },
    ): Promise<string | null>;
    preview(
      tabId: number,
      frame: string,
      rect: { x: number; y: number; width: number; height: number },
    ): Promise<string | null>;
    band(
      tabId: number,
      job: string,
      band: { srcY: number; height: number; destY: number },
      viewport: { width: number; height: number; dpr: number },
      windowId?: number,
      marker?: { y: number; code: number },
      step?: number,
    ): Promise<{ done: number; stale: boolean }>;
    settle(tabId: number, job: string): Promise<number[]>;
    /** The toolbar's turn in the capture queue (toolbar-turns.ts): ms it waited; 0 when released. */
    turn(tabId: number, windowId: number | undefined, hold: boolean): Promise<number>;
    end(tabId: number, job: string): Promise<StoredCrop | null>;
    abandon(tabId: number, job: string): void;
  };
  now?: () => Date;
}

export interface ToolbarSender {
  tabId: number;
  /** The tab's URL as the browser reports it (never taken from the message). */
  tabUrl: string;
  /** The tab's window, as the browser reports it: captures start without looking the tab up. */
  windowId?: number;
}

const SAVE_TIMEOUT_MS = 60_000;

/** Runtime messages this module answers: toolbar messages from our own content script's top frame. */
export function isToolbarMessage(message: unknown): boolean {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === 'string' && type.startsWith(TOOLBAR_MESSAGE_PREFIX);
}

export function createToolbarHandler(deps: ToolbarDeps) {
  const now = deps.now ?? (() => new Date());

  function emit<E extends CaptureEventName>(name: E, tabId: number, pageUrl: string, data: object): void {
    if (!deps.host.connected) return;
    const payload = { tab_id: tabId, page_url: pageUrl, at: now().toISOString(), ...data };
    const parsed = CAPTURE_EVENT_DATA[name].safeParse(payload);
    if (parsed.success) deps.host.emit(name, parsed.data);
  }

  async function save(
    tabId: number,
    tabUrl: string,
    workspace: string | undefined,
    ideaFolder: string,
  ): Promise<SaveOutcome> {
    const collection = await deps.store.get(tabId, tabUrl);
    if (collection.elements.length === 0 && collection.colors.length === 0) {
      throw new XipeError(
        'VALIDATION_ERROR',
        'Nothing collected yet: pick an element, an area or a colour first.',
      );
    }
    if (!deps.host.connected) {
      throw new XipeError(
        'BACKEND_UNREACHABLE',
        'The X-IPE native host is not connected, so nothing can be saved yet. Your captures are kept. ' +
          'Run `x-ipe-uiux install` (or `x-ipe-uiux doctor`) and try again.',
      );
    }
    const target = { ...(workspace ? { workspace } : {}), idea_folder: ideaFolder };
    const ids = NextReferenceIdsResult.parse(await deps.host.request(NEXT_REFERENCE_IDS, target));
    // Each image goes to the host on its own first; the save names it. A session is never
    // refused for its own screenshot sizes (a nine-viewport full page at DPR 2 is ~12 MB of base64).
    const screenshots = new Map<string, string>();
    for (const e of collection.elements) {
      const crop = await deps.store.crop(e.key);
      if (!crop) continue;
      const imageId = crypto.randomUUID();
      StageImageResult.parse(
        await deps.host.request(STAGE_IMAGE, { image_id: imageId, png_base64: crop.png }, SAVE_TIMEOUT_MS),
      );
      screenshots.set(e.key, `${STAGED_PREFIX}${imageId}`);
    }
    // Deep captures go first: the session's elements point at the areas' files.
    const areas = await saveAreas({
      host: deps.host,
      store: deps.store,
      tabId,
      elements: collection.elements,
      target,
    });
    const data = buildReferenceData({ collection, screenshots, areas, ideaFolder, ids, now: now() });
    const params = SaveReferenceParams.safeParse({ ...(workspace ? { workspace } : {}), data });
    if (!params.success)
      throw validationError(params.error, 'reference data', { ...(workspace ? { workspace } : {}), data });
    const result = SaveReferenceResult.parse(
      await deps.host.request(SAVE_REFERENCE, params.data, SAVE_TIMEOUT_MS),
    );
    await deps.store.clear(tabId, tabUrl, {
      from: collection,
      target: { workspace: result.workspace, idea_folder: result.idea_folder },
    });
    const refsDir = result.reference_data_path.slice(0, result.reference_data_path.lastIndexOf('/') + 1);
    const outcome: SaveOutcome = {
      session_number: result.session_number,
      session_file: result.session_file,
      session_path: result.session_path,
      reference_data_path: result.reference_data_path,
      screenshots: result.screenshots,
      idea_folder: result.idea_folder,
      workspace: result.workspace,
      tokens_path: data.design_tokens ? `${refsDir}${DTCG_FILE}` : null,
    };
    emit('session_saved', tabId, collection.source_url, outcome);
    return outcome;
  }

  async function dispatch(req: ToolbarRequest, sender: ToolbarSender): Promise<unknown> {
    const { tabId, tabUrl, windowId } = sender;
    switch (req.type) {
      case 'xipe-toolbar:get_state':
        return {
          collection: await deps.store.get(tabId, tabUrl, req.typography),
          host_connected: deps.host.connected,
        };
      case 'xipe-toolbar:rest_frame':
        return {
          frame: windowId === undefined ? null : await deps.capture.rest(tabId, windowId, req.viewport),
        };
      case 'xipe-toolbar:preview':
        return { data_url: await deps.capture.preview(tabId, req.frame, req.crop) };
      case 'xipe-toolbar:capture_element': {
        // The store reads the collection while the capture runs.
        const crop = deps.capture.crop(tabId, req.crop, req.viewport, windowId);
        const item = await deps.store.addElement(tabId, req.draft, crop);
        emit(item.kind === 'area' ? 'area_picked' : 'element_picked', tabId, item.page_url, item);
        if (item.comment) emit('note_added', tabId, item.page_url, { key: item.key, comment: item.comment });
        return item;
      }
      case 'xipe-toolbar:add_color': {
        const item = await deps.store.addColor(tabId, req.draft);
        emit('color_picked', tabId, item.page_url, item);
        return item;
      }
      case 'xipe-toolbar:update_item': {
        const c = await deps.store.update(tabId, req.key, {
          comment: req.comment,
          role: req.role,
          instruction: req.instruction,
        });
        if (req.comment !== undefined)
          emit('note_added', tabId, c.source_url, { key: req.key, comment: req.comment });
        return c;
      }
      case 'xipe-toolbar:deep_capture': {
        const summary = await deps.staged.take(tabId, req.key, req.rect);
        // The item may have gone meanwhile (removed, saved): then what was staged for it goes too.
        return deps.store
          .setDeep(tabId, req.key, { instruction: req.instruction, ...summary })
          .catch(async (err: unknown) => {
            await deps.store.dropStaged(req.key);
            throw err;
          });
      }
      case 'xipe-toolbar:remove_item':
        return deps.store.remove(tabId, req.key);
      case 'xipe-toolbar:get_crop': {
        // For the panel's thumbnail: a stitched shot has a small one of its own.
        const thumb = await deps.store.thumb(req.key);
        if (thumb) return { data_url: `data:image/png;base64,${thumb}` };
        const crop = await deps.store.crop(req.key);
        return { data_url: crop ? `data:image/png;base64,${crop.png}` : null };
      }
      case 'xipe-toolbar:full_page_begin':
        return { job: deps.capture.begin(tabId, req.width, req.height, req.left ?? 0) };
      case 'xipe-toolbar:full_page_band':
        return deps.capture.band(
          tabId,
          req.job,
          { srcY: req.src_y, height: req.height, destY: req.dest_y },
          req.viewport,
          windowId,
          req.marker,
          req.step,
        );
      case 'xipe-toolbar:full_page_settle':
        return { stale: await deps.capture.settle(tabId, req.job) };
      case 'xipe-toolbar:full_page_end': {
        if (!req.draft) {
          deps.capture.abandon(tabId, req.job);
          return null;
        }
        const crop = deps.capture.end(tabId, req.job);
        const item = await deps.store.addElement(tabId, req.draft, crop);
        emit('element_picked', tabId, item.page_url, item);
        return item;
      }
      case 'xipe-toolbar:sample': {
        const crop = await deps.capture.crop(tabId, req.crop, req.viewport, windowId);
        return crop
          ? { data_url: `data:image/png;base64,${crop.png}`, width: crop.width, height: crop.height }
          : null;
      }
      case 'xipe-toolbar:panel_spot':
        return deps.store.panelSpot(req.spot);
      case 'xipe-toolbar:turn':
        return { queued_ms: await deps.capture.turn(tabId, windowId, req.hold) };
      case 'xipe-toolbar:list_ideas': {
        if (!deps.host.connected) {
          throw new XipeError(
            'BACKEND_UNREACHABLE',
            'The X-IPE native host is not connected. Run `x-ipe-uiux install --workspace <dir>`, then reopen the toolbar.',
          );
        }
        return ListIdeasResult.parse(
          await deps.host.request(LIST_IDEAS, req.workspace ? { workspace: req.workspace } : {}),
        );
      }
      case 'xipe-toolbar:save':
        return save(tabId, tabUrl, req.workspace, req.idea_folder);
      case 'xipe-toolbar:clear':
        return deps.store.clear(tabId, tabUrl);
    }
  }

  /** Parses, dispatches and wraps the answer; never throws. */
  return async function handle(message: unknown, sender: ToolbarSender): Promise<ToolbarResponse> {
    const parsed = ToolbarRequest.safeParse(message);
    if (!parsed.success) {
      return {
        ok: false,
        error: validationError(parsed.error as unknown as z.ZodError, 'toolbar message', message).toPayload(),
      };
    }
    try {
      const result = await dispatch(parsed.data, sender);
      return { ok: true, result };
    } catch (err) {
      const e = toErrorPayload(err);
      return {
        ok: false,
        error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
      };
    }
  };
}

export type ToolbarHandler = ReturnType<typeof createToolbarHandler>;
export type { ToolbarRequestType, ToolbarResult };
