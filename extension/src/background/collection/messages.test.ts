import { describe, expect, it } from 'vitest';
import type { ElementDraft } from '../../../../shared/src/toolbar-messages.js';
import { CollectionStore } from './collection-store.js';
import type { HostLink } from './host-link.js';
import { createToolbarHandler } from './messages.js';
import { MemoryStorage, PNG_1x1 } from './store-test-kit.js';

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
