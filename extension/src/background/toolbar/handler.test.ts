import { describe, expect, it } from 'vitest';
import type { ElementDraft } from '#shared/toolbar-messages.js';
import { MemoryStorage, PNG_1x1 } from '#test/helpers/toolbar-store-kit.js';
import { CollectionStore, deepKey } from './collection-store.js';
import { createToolbarHandler } from './handler.js';
import type { HostLink } from './host-link.js';

const URL = 'https://example.com/pricing';
const SENDER = { tabId: 3, tabUrl: URL };

const draft = (kind: ElementDraft['kind']): ElementDraft => ({
  kind,
  selector: kind === 'full_page' ? 'html' : '#buy',
  tag: kind === 'full_page' ? 'html' : 'button',
  bounding_box: { x: 0, y: 0, width: 100, height: 40 },
  page_url: URL,
});

/** A host that records what it is sent and answers like the real one. */
function fakeHost() {
  const sent: { command: string; params: unknown; bytes: number }[] = [];
  const host: HostLink = {
    connected: true,
    emit: () => undefined,
    async request(command, params) {
      sent.push({ command, params, bytes: JSON.stringify(params).length });
      if (command === 'next_reference_ids') return { next_color: 1, next_element: 1 };
      if (command === 'stage_image') {
        const { image_id } = params as { image_id: string };
        return { image_id, bytes: 70, width: 1, height: 1 };
      }
      return {
        status: 'success',
        session_file: 'ref-session-001.json',
        session_number: 1,
        session_path: 'x-ipe-docs/ideas/001/uiux-references/sessions/ref-session-001.json',
        screenshots: [],
        reference_data_path: 'x-ipe-docs/ideas/001/uiux-references/reference-data.json',
        idea_folder: '001',
        workspace: '/ws',
      };
    },
  };
  return { host, sent };
}

describe('toolbar save', () => {
  it('sends each image on its own first, then a small save that names them', async () => {
    const store = new CollectionStore(new MemoryStorage());
    // A full page big enough that, inlined, the save would pass the 10 MiB request cap.
    const big = PNG_1x1.padEnd(12 * 1024 * 1024, 'A');
    await store.addElement(3, draft('full_page'), { png: big, width: 1, height: 1 });
    await store.addElement(3, draft('element'), { png: PNG_1x1, width: 1, height: 1 });
    const { host, sent } = fakeHost();
    const handle = createToolbarHandler({
      store,
      staged: { take: async () => Promise.reject(new Error('no deep capture here')) },
      host,
      capture: {} as never,
    });
    const r = await handle({ type: 'xipe-toolbar:save', idea_folder: '001' }, SENDER);
    expect(r).toMatchObject({ ok: true, result: { session_number: 1 } });
    expect(sent.map((s) => s.command)).toEqual([
      'next_reference_ids',
      'stage_image',
      'stage_image',
      'save_reference',
    ]);
    const staged = sent
      .filter((s) => s.command === 'stage_image')
      .map((s) => s.params as { image_id: string; png_base64: string });
    expect(staged.map((s) => s.png_base64.length)).toEqual([big.length, PNG_1x1.length]);
    const save = sent.at(-1);
    if (!save) throw new Error('no save');
    expect(save.bytes).toBeLessThan(10_000);
    const { elements } = (
      save.params as { data: { elements: { screenshots: Record<string, string | null> }[] } }
    ).data;
    expect(elements.map((e) => e.screenshots)).toEqual([
      { full_page: `staged:${staged[0]?.image_id}`, element_crop: null },
      { full_page: null, element_crop: `staged:${staged[1]?.image_id}` },
    ]);
  });
});

describe('toolbar deep capture', () => {
  const REFS = '/ws/x-ipe-docs/ideas/001/uiux-references';
  const summary = { element_count: 143, resource_count: 12, skipped_count: 1, elapsed_ms: 900 };

  /** A host that also writes areas (save_area), numbering them from area-4; `failSession` refuses the session once. */
  function areaHost(failSession: { once: boolean }) {
    const { host, sent } = fakeHost();
    const request = host.request.bind(host);
    host.request = async (command, params, timeoutMs) => {
      if (command === 'save_area') {
        sent.push({ command, params, bytes: 0 });
        const id = (params as { area_id?: string }).area_id ?? 'area-4';
        return {
          status: 'success',
          area_id: id,
          element_count: 143,
          resource_count: 1,
          resource_bytes: 9,
          skipped_count: 0,
          skipped_examples: [],
          files: {
            referenced_elements: `${REFS}/page-element-references/referenced-elements.json`,
            structure_html: `${REFS}/page-element-references/resources/${id}-structure.html`,
            styles_css: `${REFS}/page-element-references/resources/${id}-styles.css`,
            screenshot: `${REFS}/screenshots/${id}.png`,
          },
          elapsed_ms: 120,
        };
      }
      if (command === 'save_reference' && failSession.once) {
        failSession.once = false;
        throw new Error('disk full');
      }
      return request(command, params, timeoutMs);
    };
    return { host, sent };
  }

  async function setUp(failSession = { once: false }) {
    const storage = new MemoryStorage();
    const store = new CollectionStore(storage);
    const item = await store.addElement(3, draft('area'), { png: PNG_1x1, width: 1, height: 1 });
    const takes: unknown[] = [];
    const { host, sent } = areaHost(failSession);
    const handle = createToolbarHandler({
      store,
      staged: {
        take: async (...args) => {
          takes.push(args);
          await storage.set({ [deepKey(item.key)]: { staged: true } });
          return summary;
        },
      },
      host,
      capture: {} as never,
    });
    return { storage, store, item, takes, sent, handle };
  }

  it('stages the deep capture with the item and shows its counts', async () => {
    const { item, takes, handle } = await setUp();
    const rect = { x: 0, y: 900, width: 300, height: 200 };
    const r = await handle(
      { type: 'xipe-toolbar:deep_capture', key: item.key, rect, instruction: 'Rebuild the pricing' },
      SENDER,
    );
    expect(takes).toEqual([[3, item.key, rect]]);
    expect(r).toMatchObject({
      ok: true,
      result: { key: item.key, deep: { ...summary, instruction: 'Rebuild the pricing' } },
    });
    const edited = await handle(
      { type: 'xipe-toolbar:update_item', key: item.key, instruction: 'Only the cards' },
      SENDER,
    );
    expect(edited).toMatchObject({
      ok: true,
      result: { elements: [{ deep: { instruction: 'Only the cards' } }] },
    });
  });

  it('writes the area before the session, whose element points at its files', async () => {
    const { item, sent, handle } = await setUp();
    const rect = { x: 0, y: 0, width: 100, height: 40 };
    await handle({ type: 'xipe-toolbar:deep_capture', key: item.key, rect, instruction: 'Cards' }, SENDER);
    const r = await handle({ type: 'xipe-toolbar:save', idea_folder: '001' }, SENDER);
    expect(r).toMatchObject({ ok: true });
    expect(sent.map((s) => s.command)).toEqual([
      'next_reference_ids',
      'stage_image',
      'save_area',
      'save_reference',
    ]);
    expect(sent[2]?.params).toMatchObject({ idea_folder: '001', staged: item.key, instruction: 'Cards' });
    expect(sent[2]?.params).not.toHaveProperty('area_id');
    const session = sent[3]?.params as {
      data: { elements: { extracted_assets: Record<string, unknown> }[] };
    };
    expect(session.data.elements[0]?.extracted_assets).toMatchObject({
      kind: 'area',
      deep_capture: {
        area_id: 'area-4',
        instruction: 'Cards',
        element_count: 143,
        resource_count: 1,
        files: {
          referenced_elements: 'page-element-references/referenced-elements.json',
          structure_html: 'page-element-references/resources/area-4-structure.html',
          styles_css: 'page-element-references/resources/area-4-styles.css',
          screenshot: 'screenshots/area-4.png',
        },
      },
    });
  });

  it('a Save retried after the session failed replaces the area it already wrote', async () => {
    const { item, sent, handle, storage } = await setUp({ once: true });
    const rect = { x: 0, y: 0, width: 100, height: 40 };
    await handle({ type: 'xipe-toolbar:deep_capture', key: item.key, rect, instruction: '' }, SENDER);
    const failed = await handle({ type: 'xipe-toolbar:save', idea_folder: '001' }, SENDER);
    expect(failed).toMatchObject({ ok: false, error: { message: 'disk full' } });
    // Kept for the retry, with where the area went.
    expect(storage.data.has(deepKey(item.key))).toBe(true);
    const again = await handle({ type: 'xipe-toolbar:save', idea_folder: '001' }, SENDER);
    expect(again).toMatchObject({ ok: true });
    const areas = sent.filter((s) => s.command === 'save_area').map((s) => s.params);
    expect(areas).toEqual([
      expect.not.objectContaining({ area_id: expect.anything() }),
      expect.objectContaining({ area_id: 'area-4' }),
    ]);
    // Saved: the staged capture goes with the collection.
    expect(storage.data.has(deepKey(item.key))).toBe(false);
  });

  it('drops what it staged when the item went meanwhile', async () => {
    const { item, handle, storage } = await setUp();
    await handle({ type: 'xipe-toolbar:remove_item', key: item.key }, SENDER);
    const rect = { x: 0, y: 0, width: 100, height: 40 };
    const r = await handle(
      { type: 'xipe-toolbar:deep_capture', key: item.key, rect, instruction: '' },
      SENDER,
    );
    expect(r).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('no longer collected') },
    });
    expect(storage.data.has(deepKey(item.key))).toBe(false);
  });
});
