// @vitest-environment happy-dom
import '#test/support/as-user-input.js';
import { describe, expect, it, vi } from 'vitest';
import type { Collection, IdeasListing } from '#shared/toolbar-messages.js';
import { SaveForm, type SaveFormState } from './save-form.js';

const ideas: IdeasListing = {
  workspaces: [
    {
      path: '/work/a',
      ideas: [
        { name: '001. One', has_references: false, session_count: 0 },
        { name: '002. Two', has_references: true, session_count: 3 },
        { name: '003. Three', has_references: true, session_count: 1 },
      ],
    },
  ],
};

const collection = (elements: number, last?: string): Collection => ({
  source_url: 'https://example.com/',
  started_at: '2026-01-01T00:00:00.000Z',
  elements: Array.from({ length: elements }, (_, i) => ({
    key: `k${i}`,
    kind: 'element',
    selector: `#e${i}`,
    tag: 'div',
    bounding_box: { x: 0, y: 0, width: 10, height: 10 },
    page_url: 'https://example.com/',
    styles: {},
    created_at: '2026-01-01T00:00:00.000Z',
    crop: null,
  })) as Collection['elements'],
  colors: [],
  typography: {},
  ...(last ? { last_target: { workspace: '/work/a', idea_folder: last } } : {}),
});

function setup() {
  const container = document.createElement('div');
  const save = vi.fn();
  const form = new SaveForm(container, { save, reloadIdeas: vi.fn() }, new AbortController().signal);
  const state = (over: Partial<SaveFormState>): SaveFormState => ({
    collection: collection(1),
    ideas,
    pending: 0,
    saving: false,
    ...over,
  });
  const button = () => container.querySelector('.row .btn:not(.secondary)') as HTMLButtonElement;
  const idea = () => container.querySelector('select[aria-label="Idea folder"]') as HTMLSelectElement;
  return { container, form, save, state, button, idea };
}

describe('SaveForm', () => {
  it('counts each idea\'s sessions in words: "1 session", "3 sessions"', () => {
    const { form, state, idea } = setup();
    form.update(state({}));
    expect([...idea().options].map((o) => o.textContent)).toEqual(
      expect.arrayContaining(['001. One', '002. Two (3 sessions)', '003. Three (1 session)']),
    );
  });

  it('keeps its button across re-renders, so a click pressed before one still counts', () => {
    const { form, save, state, button } = setup();
    form.update(state({ collection: collection(0), pending: 1 }));
    const pressed = button();
    expect([pressed.disabled, pressed.textContent]).toEqual([false, 'Save 1 item']);
    form.update(state({ collection: collection(1) }));
    expect(button()).toBe(pressed);
    pressed.click();
    expect(save).toHaveBeenCalledWith('/work/a', '001. One');
  });

  it("keeps the designer's idea over re-renders, and starts from the last target", () => {
    const { form, state, idea, save, button } = setup();
    form.update(state({ collection: collection(1, '002. Two') }));
    expect(idea().value).toBe('002. Two');
    idea().value = '001. One';
    idea().dispatchEvent(new Event('change'));
    form.update(state({ collection: collection(2, '002. Two') }));
    form.update(state({ collection: collection(2, '002. Two'), ideas: structuredClone(ideas) }));
    expect(idea().value).toBe('001. One');
    button().click();
    expect(save).toHaveBeenCalledWith('/work/a', '001. One');
  });

  it('is off with nothing to save and while a save runs', () => {
    const { form, state, button, container } = setup();
    form.update(state({ collection: collection(0) }));
    expect([button().disabled, button().textContent]).toEqual([true, 'Save 0 items']);
    form.update(state({ saving: true }));
    expect([button().disabled, button().textContent]).toEqual([true, 'Saving…']);
    form.update(state({ ideas: null, problem: 'The X-IPE host is not connected' }));
    expect(button().disabled).toBe(true);
    expect(container.querySelector('.empty')?.textContent).toBe('The X-IPE host is not connected');
  });
});
