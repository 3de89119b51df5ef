// @vitest-environment happy-dom
import '#test/support/as-user-input.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CollectedElement } from '#shared/toolbar-messages.js';
import { ElementsView, otherPage } from './elements-view.js';

// Thumbnails and "locate" ask the worker; these rows have neither.
vi.mock('../runtime.js', () => ({ send: vi.fn() }));

const item = (key: string, deep = false): CollectedElement => ({
  key,
  kind: 'element',
  selector: `#${key}`,
  tag: 'div',
  bounding_box: { x: 0, y: 0, width: 100, height: 40 },
  page_url: 'https://example.test/',
  created_at: '2026-11-26T00:00:00.000Z',
  crop: null,
  ...(deep
    ? {
        deep: {
          instruction: 'Rebuild this',
          element_count: 3,
          resource_count: 1,
          skipped_count: 0,
          elapsed_ms: 5,
        },
      }
    : {}),
});

/** The list in a closed shadow root, as the toolbar has it. */
function list() {
  const host = document.createElement('div');
  document.body.append(host);
  const root = host.attachShadow({ mode: 'closed' });
  const el = document.createElement('div');
  root.append(el);
  const actions = { comment: vi.fn(), instruction: vi.fn(), remove: vi.fn() };
  const view = new ElementsView(el, document.createElement('div'), actions, new AbortController().signal);
  const field = (key: string, which: 'note' | 'instruction') =>
    Array.from(el.querySelectorAll<HTMLTextAreaElement>(`.item[data-key="${key}"] textarea`)).find(
      (t) => t.classList.contains('instruction') === (which === 'instruction'),
    );
  return { root, el, view, actions, field };
}

describe('ElementsView', () => {
  afterEach(() => {
    // happy-dom keeps a removed element as the document's focus, unlike a browser.
    (document.activeElement as HTMLElement | null)?.blur();
    document.body.replaceChildren();
  });

  it('keeps a note being typed when another capture lands and the list is drawn again', () => {
    const { root, view, actions, field } = list();
    view.render([item('a'), item('b')]);
    const typing = field('b', 'note');
    typing?.focus();
    if (typing) typing.value = 'Primary call to';
    typing?.setSelectionRange(8, 12);

    view.render([item('a'), item('b'), item('c')]);

    const again = field('b', 'note');
    expect(again).not.toBe(typing);
    expect(again?.value).toBe('Primary call to');
    expect(root.activeElement).toBe(again);
    expect([again?.selectionStart, again?.selectionEnd]).toEqual([8, 12]);
    expect(field('a', 'note')?.value).toBe('');
    // Saved when the edit ends, text carried over included; once, and not for an untouched field.
    expect(actions.comment).not.toHaveBeenCalled();
    again?.blur();
    expect(actions.comment).toHaveBeenCalledExactlyOnceWith('b', 'Primary call to');
    again?.focus();
    again?.blur();
    field('a', 'note')?.focus();
    field('a', 'note')?.blur();
    expect(actions.comment).toHaveBeenCalledOnce();
  });

  it('keeps an instruction being typed the same way, and nothing when no field has the focus', () => {
    const { root, view, actions, field } = list();
    view.render([item('a', true)]);
    const typing = field('a', 'instruction');
    typing?.focus();
    if (typing) typing.value = 'Rebuild this with the grid';
    view.render([item('a', true), item('b')]);
    expect(field('a', 'instruction')?.value).toBe('Rebuild this with the grid');
    expect(root.activeElement).toBe(field('a', 'instruction'));

    field('a', 'instruction')?.blur();
    expect(actions.instruction).toHaveBeenCalledExactlyOnceWith('a', 'Rebuild this with the grid');
    view.render([item('a', true)]);
    expect(field('a', 'instruction')?.value).toBe('Rebuild this');
    expect(root.activeElement).toBeNull();
  });

  it('drops an edit whose item went away meanwhile', () => {
    const { root, view, field } = list();
    view.render([item('a'), item('b')]);
    field('b', 'note')?.focus();
    view.render([item('a')]);
    expect(field('b', 'note')).toBeUndefined();
    expect(root.activeElement).toBeNull();
  });
});

describe('where an item was captured', () => {
  it('is said only for another page: host and path, never query or fragment', () => {
    expect(otherPage('https://a.test/shop?x=1#top', 'https://a.test/shop')).toBeNull();
    expect(otherPage('https://a.test/shop?x=1', 'https://a.test/about')).toBe('a.test/shop');
    expect(otherPage('https://b.test/', 'https://a.test/')).toBe('b.test/');
    expect(otherPage(`https://a.test/${'x'.repeat(100)}`, 'https://a.test/')?.length).toBe(60);
  });
});
