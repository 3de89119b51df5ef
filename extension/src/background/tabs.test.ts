import { describe, expect, it, vi } from 'vitest';

vi.mock('../platform/browser.js', () => ({ browser: {}, chromeApi: {}, userScriptsApi: () => null }));

const { pickTarget, sortTabs } = await import('./tabs.js');

const tab = (
  id: number,
  window_id: number,
  index: number,
  url: string,
  active = false,
  focused_window = false,
) => ({
  id,
  window_id,
  index,
  url,
  title: `t${id}`,
  active,
  focused_window,
});

describe('tabs', () => {
  const tabs = sortTabs([
    tab(7, 2, 1, 'https://b.example/two', true, true),
    tab(3, 1, 1, 'https://a.example/page'),
    tab(9, 2, 0, 'https://b.example/one'),
    tab(4, 1, 0, 'chrome://newtab/', true),
  ]);

  it('sorts by window id, then index', () => {
    expect(tabs.map((t) => t.id)).toEqual([4, 3, 9, 7]);
  });

  it('targets by tab id, url substring (first in order) or the focused active tab', () => {
    expect(pickTarget(tabs, { tab_id: 3 }).id).toBe(3);
    expect(pickTarget(tabs, { url_contains: 'b.example' }).id).toBe(9);
    expect(pickTarget(tabs, {}).id).toBe(7);
  });

  it('says what is open when nothing matches', () => {
    expect(() => pickTarget(tabs, { tab_id: 99 })).toThrow(/No tab with id 99/);
    expect(() => pickTarget(tabs, { url_contains: 'nope' })).toThrow(/a\.example\/page/);
    expect(() => pickTarget([], {})).toThrow(/no open tab/);
  });
});
