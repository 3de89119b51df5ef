// @vitest-environment happy-dom
import '#test/support/as-user-input.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolbarMode } from '../modes/mode.js';
import { DeepOptions } from './deep-options.js';

const area = { name: 'area', deepCapture: { on: true } } as unknown as ToolbarMode;
const page = { name: 'page' } as unknown as ToolbarMode;

function setup() {
  const panel = document.createElement('div');
  panel.className = 'panel';
  const row = document.createElement('div');
  const below = document.createElement('div');
  panel.append(row, below);
  document.body.append(panel);
  const abort = new AbortController();
  const options = new DeepOptions(row, abort.signal);
  let hovered = false;
  const matches = panel.matches.bind(panel);
  vi.spyOn(panel, 'matches').mockImplementation((s) => (s === ':hover' ? hovered : matches(s)));
  return {
    panel,
    row,
    options,
    abort,
    hover: (on: boolean) => {
      hovered = on;
      if (!on) panel.dispatchEvent(new Event('pointerleave'));
    },
  };
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('DeepOptions', () => {
  it('shows the row for a mode that offers deep capture, on as the mode says', () => {
    const { row, options } = setup();
    expect(row.hidden).toBe(true);
    options.show(area);
    expect(row.hidden).toBe(false);
    expect(row.querySelector<HTMLInputElement>('.deep-toggle')?.checked).toBe(true);
    expect(options.take(area)).toEqual({ instruction: '' });
    options.show(page);
    expect(row.hidden).toBe(true);
  });

  it('goes at once when the pointer is outside the panel', () => {
    const { row, options } = setup();
    options.show(area);
    options.show(null);
    expect(row.hidden).toBe(true);
  });

  it('keeps its place, blank, while the pointer is in the panel, and goes when it leaves', () => {
    const { row, options, hover } = setup();
    options.show(area);
    hover(true);
    options.show(null);
    expect([row.hidden, row.style.visibility]).toEqual([false, 'hidden']);
    hover(false);
    expect([row.hidden, row.style.visibility]).toEqual([true, '']);
  });

  it('stays when a mode with options comes back before the pointer leaves', () => {
    const { row, options, hover } = setup();
    options.show(area);
    hover(true);
    options.show(null);
    options.show(area);
    expect([row.hidden, row.style.visibility]).toEqual([false, '']);
    // Off again, still in the panel: blank again, and gone once the pointer leaves.
    options.show(null);
    expect(row.style.visibility).toBe('hidden');
    hover(false);
    expect(row.hidden).toBe(true);
  });

  it('stays shown when the pointer leaves with a mode on', () => {
    const { row, options, hover } = setup();
    options.show(area);
    hover(true);
    options.show(null);
    options.show(area);
    hover(false);
    expect([row.hidden, row.style.visibility]).toEqual([false, '']);
  });
});
