import type {
  CollectedColor,
  CollectedElement,
  Collection,
  ColorDraft,
  ColorRole,
  DeepSummary,
  ElementDraft,
  Typography,
} from '#shared/toolbar-messages.js';
import {
  Collection as CollectionSchema,
  type PanelSpot,
  PanelSpot as PanelSpotSchema,
} from '#shared/toolbar-messages.js';
import type { StoredCrop } from '../capture/capture.js';

/**
 * What the designer collected in a tab, kept in extension storage (not in the page, not in worker
 * memory) so it survives collapsing the toolbar, a service-worker restart and a host reconnect.
 * Cleared only after a successful save. Crops and staged deep captures are stored under their own
 * keys so listing the collection never moves megabytes of base64 around.
 */

export interface KeyValueStorage {
  get(keys: string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

export type { StoredCrop };

const COLLECTION_PREFIX = 'xipe-toolbar:collection:';
const CROP_PREFIX = 'xipe-toolbar:crop:';
const DEEP_PREFIX = 'xipe-toolbar:deep:';
const DEEP_FILES_PREFIX = 'xipe-toolbar:deep-files:';
const THUMB_PREFIX = 'xipe-toolbar:thumb:';
const PANEL_SPOT_KEY = 'xipe-toolbar:panel-spot';

export const collectionKey = (tabId: number): string => `${COLLECTION_PREFIX}${tabId}`;
export const cropKey = (key: string): string => `${CROP_PREFIX}${key}`;
/** An item's staged deep capture: the engine's reading (deep-capture/staged.ts). */
export const deepKey = (key: string): string => `${DEEP_PREFIX}${key}`;
/** The fonts and images fetched for it, by URL. */
export const deepFilesKey = (key: string): string => `${DEEP_FILES_PREFIX}${key}`;
/** A stitched shot's thumbnail (StoredCrop.thumb), kept apart so the panel never reads the shot. */
export const thumbKey = (key: string): string => `${THUMB_PREFIX}${key}`;
/** Everything stored under an item's own keys besides the collection. */
const itemKeys = (key: string): string[] => [cropKey(key), deepKey(key), deepFilesKey(key), thumbKey(key)];

export function emptyCollection(pageUrl: string, now: Date): Collection {
  return { source_url: pageUrl, started_at: now.toISOString(), elements: [], colors: [], typography: {} };
}

export class CollectionStore {
  /** One chain per tab: read-modify-write of a collection never interleaves. */
  private readonly chains = new Map<number, Promise<unknown>>();

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly newKey: () => string = () => crypto.randomUUID(),
    private readonly now: () => Date = () => new Date(),
  ) {}

  private serial<T>(tabId: number, work: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(tabId) ?? Promise.resolve();
    const next = prev.then(work, work);
    this.chains.set(
      tabId,
      next.catch(() => undefined),
    );
    return next;
  }

  private async read(tabId: number): Promise<Collection | null> {
    const raw = (await this.storage.get([collectionKey(tabId)]))[collectionKey(tabId)];
    if (raw === undefined) return null;
    const parsed = CollectionSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
  }

  private async write(tabId: number, c: Collection): Promise<void> {
    await this.storage.set({ [collectionKey(tabId)]: c });
  }

  /** The tab's collection; an empty one follows the page the designer is on now. */
  get(tabId: number, pageUrl: string, typography?: Typography): Promise<Collection> {
    return this.serial(tabId, async () => {
      const current = await this.read(tabId);
      const empty = !current || (current.elements.length === 0 && current.colors.length === 0);
      if (current && !empty && !typography) return current;
      const base =
        current && !empty
          ? current
          : {
              ...emptyCollection(pageUrl, this.now()),
              ...(current?.last_target ? { last_target: current.last_target } : {}),
            };
      // Page-level typography fills in what the designer has not picked.
      const next = typography ? { ...base, typography: { ...typography, ...base.typography } } : base;
      if (JSON.stringify(next) !== JSON.stringify(current)) await this.write(tabId, next);
      return next;
    });
  }

  /**
   * Adds an element with its crop. The crop may still be on its way (a capture in progress): the
   * collection is read meanwhile, and nothing is written if the capture fails.
   */
  addElement(
    tabId: number,
    draft: ElementDraft,
    pendingCrop: StoredCrop | null | Promise<StoredCrop | null>,
  ): Promise<CollectedElement> {
    // Settled at once, so a capture that fails before its turn is never an unhandled rejection.
    const cropResult = Promise.resolve(pendingCrop).then(
      (crop) => ({ crop }),
      (error: unknown) => ({ error }),
    );
    return this.serial(tabId, async () => {
      const [stored, captured] = await Promise.all([this.read(tabId), cropResult]);
      if ('error' in captured) throw captured.error;
      const crop = captured.crop;
      const c = stored ?? emptyCollection(draft.page_url, this.now());
      const key = this.newKey();
      const item: CollectedElement = {
        ...draft,
        key,
        created_at: this.now().toISOString(),
        crop: crop ? { width: crop.width, height: crop.height } : null,
      };
      const next = { ...c, elements: [...c.elements, item] };
      // One write for the crop and the item that names it: one round trip, and never one without the other.
      const images = crop
        ? {
            [cropKey(key)]: { png: crop.png, width: crop.width, height: crop.height },
            ...(crop.thumb ? { [thumbKey(key)]: crop.thumb } : {}),
          }
        : {};
      await this.storage.set({ ...images, [collectionKey(tabId)]: next });
      return item;
    });
  }

  addColor(tabId: number, draft: ColorDraft): Promise<CollectedColor> {
    return this.serial(tabId, async () => {
      const c = (await this.read(tabId)) ?? emptyCollection(draft.page_url, this.now());
      const item: CollectedColor = { ...draft, key: this.newKey(), created_at: this.now().toISOString() };
      await this.write(tabId, { ...c, colors: [...c.colors, item] });
      return item;
    });
  }

  update(
    tabId: number,
    key: string,
    change: {
      comment?: string | null | undefined;
      role?: ColorRole | undefined;
      instruction?: string | undefined;
    },
  ): Promise<Collection> {
    return this.serial(tabId, async () => {
      const c = await this.read(tabId);
      if (!c) throw new Error('Nothing collected in this tab');
      const elements = c.elements.map((e) => {
        if (e.key !== key) return e;
        const deep =
          e.deep && change.instruction !== undefined
            ? { ...e.deep, instruction: change.instruction }
            : e.deep;
        const withDeep = deep ? { ...e, deep } : e;
        if (change.comment === undefined) return withDeep;
        const { comment: _old, ...rest } = withDeep;
        return change.comment === null || change.comment === '' ? rest : { ...rest, comment: change.comment };
      });
      const colors = c.colors.map((col) =>
        col.key === key && change.role ? { ...col, role: change.role } : col,
      );
      const next = { ...c, elements, colors };
      await this.write(tabId, next);
      return next;
    });
  }

  /**
   * Sets (or, with null, removes) an item's deep capture. Fails when the item is gone (removed or
   * saved meanwhile): its staged data is then the caller's to drop.
   */
  setDeep(tabId: number, key: string, deep: DeepSummary | null): Promise<CollectedElement> {
    return this.serial(tabId, async () => {
      const c = await this.read(tabId);
      const item = c?.elements.find((e) => e.key === key);
      if (!c || !item) throw new Error('That item is no longer collected (removed or saved).');
      const { deep: _old, ...rest } = item;
      const next: CollectedElement = deep ? { ...rest, deep } : rest;
      await this.write(tabId, { ...c, elements: c.elements.map((e) => (e.key === key ? next : e)) });
      return next;
    });
  }

  /** Forgets what was staged for an item's deep capture (the item itself is left as it is). */
  async dropStaged(key: string): Promise<void> {
    await this.storage.remove([deepKey(key), deepFilesKey(key)]);
  }

  remove(tabId: number, key: string): Promise<Collection> {
    return this.serial(tabId, async () => {
      const c = await this.read(tabId);
      if (!c) throw new Error('Nothing collected in this tab');
      const next = {
        ...c,
        elements: c.elements.filter((e) => e.key !== key),
        colors: c.colors.filter((col) => col.key !== key),
      };
      await this.write(tabId, next);
      await this.storage.remove(itemKeys(key));
      return next;
    });
  }

  /** The item's thumbnail (PNG base64), when it has one of its own (a stitched shot). */
  async thumb(key: string): Promise<string | null> {
    const raw = (await this.storage.get([thumbKey(key)]))[thumbKey(key)];
    return typeof raw === 'string' ? raw : null;
  }

  async crop(key: string): Promise<StoredCrop | null> {
    const raw = (await this.storage.get([cropKey(key)]))[cropKey(key)];
    if (!raw || typeof raw !== 'object') return null;
    const { png, width, height } = raw as Partial<StoredCrop>;
    return typeof png === 'string' && typeof width === 'number' && typeof height === 'number'
      ? { png, width, height }
      : null;
  }

  /**
   * Empties the collection (the designer's Clear). After a successful save, `saved` names the
   * collection the save was built from and where it went: only its items and their crops go, and
   * what was captured while the save ran stays.
   */
  clear(
    tabId: number,
    pageUrl: string,
    saved?: { from: Collection; target: NonNullable<Collection['last_target']> },
  ): Promise<Collection> {
    return this.serial(tabId, async () => {
      const c = await this.read(tabId);
      const gone = new Set(saved ? [...saved.from.elements, ...saved.from.colors].map((i) => i.key) : []);
      const keep = <T extends { key: string }>(items: T[] = []): T[] =>
        saved ? items.filter((i) => !gone.has(i.key)) : [];
      const elements = keep(c?.elements);
      const colors = keep(c?.colors);
      const target = saved?.target ?? c?.last_target;
      const next: Collection =
        c && elements.length + colors.length > 0
          ? { ...c, elements, colors, ...(target ? { last_target: target } : {}) }
          : {
              ...emptyCollection(pageUrl, this.now()),
              typography: c?.typography ?? {},
              ...(target ? { last_target: target } : {}),
            };
      await this.write(tabId, next);
      const dropped = (c?.elements ?? []).filter((e) => !elements.includes(e));
      if (dropped.length > 0) await this.storage.remove(dropped.flatMap((e) => itemKeys(e.key)));
      return next;
    });
  }

  /** Forgets a closed tab and its crops. */
  drop(tabId: number): Promise<void> {
    return this.serial(tabId, async () => {
      const c = await this.read(tabId);
      await this.storage.remove([
        collectionKey(tabId),
        ...(c?.elements.flatMap((e) => itemKeys(e.key)) ?? []),
      ]);
    });
  }

  /** The remembered spot of the toolbar panel (one for all tabs); with `spot`, remembers it first. */
  async panelSpot(spot?: PanelSpot): Promise<PanelSpot | null> {
    if (spot) {
      await this.storage.set({ [PANEL_SPOT_KEY]: spot });
      return spot;
    }
    const parsed = PanelSpotSchema.safeParse((await this.storage.get([PANEL_SPOT_KEY]))[PANEL_SPOT_KEY]);
    return parsed.success ? parsed.data : null;
  }

  /** Drops collections of tabs that no longer exist (tab ids do not survive a browser restart). */
  async prune(liveTabIds: ReadonlySet<number>, allKeys: readonly string[]): Promise<void> {
    for (const key of allKeys) {
      if (!key.startsWith(COLLECTION_PREFIX)) continue;
      const tabId = Number(key.slice(COLLECTION_PREFIX.length));
      if (Number.isInteger(tabId) && !liveTabIds.has(tabId)) await this.drop(tabId);
    }
  }
}
