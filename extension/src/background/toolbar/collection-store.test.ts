import { describe, expect, it } from 'vitest';
import { ReferenceData } from '#shared/reference-data.js';
import type { ElementDraft } from '#shared/toolbar-messages.js';
import { MemoryStorage, PNG_1x1 } from '#test/helpers/toolbar-store-kit.js';
import { CollectionStore, cropKey, type StoredCrop, thumbKey } from './collection-store.js';
import { buildReferenceData, pickedTypography } from './reference-builder.js';

const URL = 'https://example.com/pricing';
const draft = (over: Partial<ElementDraft> = {}): ElementDraft => ({
  kind: 'element',
  selector: '#buy',
  tag: 'button',
  bounding_box: { x: 10, y: 20, width: 100, height: 40 },
  page_url: URL,
  styles: { 'font-family': 'Inter, sans-serif', 'font-size': '16px' },
  ...over,
});

function setup() {
  let n = 0;
  const storage = new MemoryStorage();
  const store = new CollectionStore(
    storage,
    () => `k${++n}`,
    () => new Date('2026-01-02T03:04:05Z'),
  );
  return { storage, store };
}

describe('CollectionStore', () => {
  it('keeps what was collected across instances (a worker restart) and stores crops apart', async () => {
    const { storage, store } = setup();
    const crop: StoredCrop = { png: PNG_1x1, width: 1, height: 1 };
    await store.addElement(7, draft(), crop);
    await store.addColor(7, {
      hex: '#2563eb',
      rgb: '37, 99, 235',
      hsl: '221, 83%, 53%',
      role: 'primary',
      page_url: URL,
    });
    const again = new CollectionStore(storage);
    const c = await again.get(7, URL);
    expect(c.elements.map((e) => e.key)).toEqual(['k1']);
    expect(c.elements[0]?.crop).toEqual({ width: 1, height: 1 });
    expect(c.colors.map((e) => e.hex)).toEqual(['#2563eb']);
    expect(await again.crop('k1')).toEqual(crop);
    expect(JSON.stringify(storage.data.get('xipe-toolbar:collection:7'))).not.toContain(PNG_1x1);
  });

  it('reads while a capture is still running, then writes the crop and its item in one go', async () => {
    const { storage, store } = setup();
    const reads: string[] = [];
    const writes: string[][] = [];
    const get = storage.get.bind(storage);
    const set = storage.set.bind(storage);
    storage.get = async (keys) => {
      reads.push(...keys);
      return get(keys);
    };
    storage.set = async (items) => {
      writes.push(Object.keys(items));
      return set(items);
    };
    let finish: (crop: StoredCrop) => void = () => undefined;
    const capture = new Promise<StoredCrop>((resolve) => {
      finish = resolve;
    });
    const added = store.addElement(3, draft(), capture);
    await new Promise((r) => setTimeout(r, 0));
    expect(reads).toEqual(['xipe-toolbar:collection:3']);
    expect(writes).toEqual([]);
    finish({ png: PNG_1x1, width: 1, height: 1 });
    const item = await added;
    expect(writes).toEqual([[cropKey(item.key), 'xipe-toolbar:collection:3']]);
    expect(await store.crop(item.key)).toEqual({ png: PNG_1x1, width: 1, height: 1 });
  });

  it('writes nothing when the capture fails, and the next addition still works', async () => {
    const { storage, store } = setup();
    const failed = Promise.reject(new Error('The tab was switched during the capture; pick it again.'));
    await expect(store.addElement(4, draft(), failed)).rejects.toThrow('switched');
    expect([...storage.data.keys()]).toEqual([]);
    await store.addElement(4, draft(), null);
    expect((await store.get(4, URL)).elements).toHaveLength(1);
  });

  it('serialises concurrent additions so none is lost', async () => {
    const { store } = setup();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.addElement(1, draft({ selector: `#e${i}` }), null)),
    );
    expect((await store.get(1, URL)).elements).toHaveLength(20);
  });

  it("keeps a stitched shot's thumbnail apart from the shot, for the panel, and removes both with the item", async () => {
    const { storage, store } = setup();
    const shot = await store.addElement(3, draft({ kind: 'full_page' }), {
      png: PNG_1x1,
      width: 1,
      height: 1,
      thumb: 'THUMB',
    });
    const plain = await store.addElement(3, draft(), { png: PNG_1x1, width: 1, height: 1 });
    expect(await store.thumb(shot.key)).toBe('THUMB');
    expect(await store.crop(shot.key)).toEqual({ png: PNG_1x1, width: 1, height: 1 });
    expect(JSON.stringify(storage.data.get(cropKey(shot.key)))).not.toContain('THUMB');
    expect(await store.thumb(plain.key)).toBeNull();
    await store.remove(3, shot.key);
    expect(storage.data.has(thumbKey(shot.key))).toBe(false);
    expect(storage.data.has(cropKey(shot.key))).toBe(false);
  });

  it('updates notes and roles, removes items with their crop, clears after save', async () => {
    const { storage, store } = setup();
    const el = await store.addElement(1, draft(), { png: PNG_1x1, width: 1, height: 1 });
    const col = await store.addColor(1, {
      hex: '#ffffff',
      rgb: '255, 255, 255',
      hsl: '0, 0%, 100%',
      role: 'custom',
      page_url: URL,
    });
    let c = await store.update(1, el.key, { comment: 'Primary CTA' });
    expect(c.elements[0]?.comment).toBe('Primary CTA');
    c = await store.update(1, el.key, { comment: null });
    expect(c.elements[0]?.comment).toBeUndefined();
    c = await store.update(1, col.key, { role: 'background' });
    expect(c.colors[0]?.role).toBe('background');
    c = await store.remove(1, el.key);
    expect(c.elements).toEqual([]);
    expect(storage.data.has(cropKey(el.key))).toBe(false);
    c = await store.clear(1, URL);
    expect(c).toMatchObject({ elements: [], colors: [] });
  });

  it('after a save, removes what was saved and keeps what was captured meanwhile', async () => {
    const { storage, store } = setup();
    const saved = await store.addElement(1, draft(), { png: PNG_1x1, width: 1, height: 1 });
    const from = await store.get(1, URL);
    // Stored while the save ran.
    const later = await store.addElement(1, draft({ selector: '#later' }), {
      png: PNG_1x1,
      width: 1,
      height: 1,
    });
    const target = { idea_folder: '018. Feature-UIUX Reference' };
    let c = await store.clear(1, URL, { from, target });
    expect(c.elements.map((e) => e.key)).toEqual([later.key]);
    expect(c.last_target).toEqual(target);
    expect(storage.data.has(cropKey(saved.key))).toBe(false);
    expect(storage.data.has(cropKey(later.key))).toBe(true);
    c = await store.clear(1, URL, { from: c, target });
    expect(c).toMatchObject({ elements: [], colors: [], last_target: target });
    expect(storage.data.has(cropKey(later.key))).toBe(false);
  });

  it('follows the page while empty, keeps the source while not', async () => {
    const { store } = setup();
    expect((await store.get(1, 'https://a.test/')).source_url).toBe('https://a.test/');
    expect((await store.get(1, 'https://b.test/')).source_url).toBe('https://b.test/');
    await store.addElement(1, draft({ page_url: 'https://b.test/' }), null);
    expect((await store.get(1, 'https://c.test/')).source_url).toBe('https://b.test/');
  });

  it('drops closed tabs and prunes tabs that are gone', async () => {
    const { storage, store } = setup();
    await store.addElement(1, draft(), { png: PNG_1x1, width: 1, height: 1 });
    await store.addElement(2, draft(), null);
    await store.prune(new Set([2]), [...storage.data.keys()]);
    expect([...storage.data.keys()]).toEqual(['xipe-toolbar:collection:2']);
  });
});

describe('buildReferenceData', () => {
  it('numbers ids from the idea’s next free numbers and passes the v1.0 schema', async () => {
    const { store } = setup();
    await store.addElement(1, draft({ tag: 'h1', styles: { 'font-family': '"Playfair Display", serif' } }), {
      png: PNG_1x1,
      width: 1,
      height: 1,
    });
    await store.addElement(
      1,
      draft({ kind: 'area', selector: 'main', tag: 'main', comment: 'hero spacing' }),
      {
        png: PNG_1x1,
        width: 1,
        height: 1,
      },
    );
    await store.addElement(
      1,
      draft({ kind: 'full_page', selector: 'html', tag: 'html', styles: undefined }),
      {
        png: PNG_1x1,
        width: 1,
        height: 1,
      },
    );
    await store.addColor(1, {
      hex: '#2563eb',
      rgb: '37, 99, 235',
      hsl: '221, 83%, 53%',
      role: 'primary',
      page_url: URL,
    });
    const c = await store.get(1, URL, { body_font: 'Inter', base_size: '16px' });
    const crops = new Map(
      await Promise.all(c.elements.map(async (e) => [e.key, await store.crop(e.key)] as const)),
    );
    const data = buildReferenceData({
      collection: c,
      screenshots: new Map([...crops].flatMap(([k, v]) => (v ? [[k, `base64:${v.png}`] as const] : []))),
      ideaFolder: '018. Feature-UIUX Reference',
      ids: { next_color: 4, next_element: 12 },
      now: new Date('2026-01-02T03:04:05Z'),
    });
    const parsed = ReferenceData.parse(data);
    expect(parsed.colors?.map((x) => x.id)).toEqual(['color-004']);
    expect(parsed.elements?.map((x) => x.id)).toEqual(['elem-012', 'elem-013', 'elem-014']);
    expect(parsed.elements?.[0]?.screenshots).toEqual({ full_page: null, element_crop: `base64:${PNG_1x1}` });
    expect(parsed.elements?.[2]?.screenshots).toEqual({ full_page: `base64:${PNG_1x1}`, element_crop: null });
    expect(parsed.elements?.[1]?.comment).toBe('hero spacing');
    expect(parsed.design_tokens).toEqual({
      colors: { primary: '#2563eb' },
      // The body font and size are the page's body text, whatever was picked (here an area).
      typography: {
        heading_font: '"Playfair Display", serif',
        body_font: 'Inter',
        base_size: '16px',
      },
    });
    expect(pickedTypography(c).heading_font).toBe('"Playfair Display", serif');
  });
});
