// @vitest-environment happy-dom
import '#test/support/as-user-input.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModeContext, ModeSession, ToolbarMode } from './modes/mode.js';

/**
 * The controller's mode machine with two stand-in modes (a tool and a run); the real modes have
 * their own tests in modes/, and the whole toolbar runs in a real browser in test/e2e.
 */

const entered: { mode: string; ctx: ModeContext }[] = [];
const confirm = vi.fn();
let runJob: { release(): void } | null = null;

function tool(name: string, key: string, deepCapture?: { on: boolean }): ToolbarMode {
  return {
    name,
    label: name,
    key,
    icon: '<svg></svg>',
    hint: `${name} hint`,
    kind: 'tool',
    ...(deepCapture ? { deepCapture } : {}),
    enter(ctx): ModeSession {
      entered.push({ mode: name, ctx });
      return { confirm };
    },
  };
}

const run: ToolbarMode = {
  name: 'run',
  label: 'Run',
  key: 'r',
  icon: '<svg></svg>',
  hint: 'run hint',
  kind: 'run',
  async enter(ctx) {
    entered.push({ mode: 'run', ctx });
    await ctx.exclusive(() => new Promise<void>((release) => (runJob = { release })));
    ctx.setStatus('run done', 'ok');
    ctx.finish();
    return undefined;
  },
};

vi.mock('./modes/index.js', () => ({
  MODES: [tool('alpha', 'a'), tool('beta', 'b', { on: true }), run],
}));
/** What the toolbar sent the worker. */
const sent: Record<string, unknown>[] = [];
let captured: object = {};
/** Holds deep captures back until the test lets them finish. */
let deepGate: Promise<void> = Promise.resolve();
const DEEP = { element_count: 143, resource_count: 12, skipped_count: 1, elapsed_ms: 900 };
vi.mock('./runtime.js', () => ({
  ToolbarFailure: class extends Error {},
  /** The window's turn in the worker's capture queue, recorded among the messages. */
  inTurn: async <T>(work: () => Promise<T>): Promise<T> => {
    sent.push({ type: 'turn:hold' });
    try {
      return await work();
    } finally {
      sent.push({ type: 'turn:release' });
    }
  },
  send: vi.fn(async (request: Record<string, unknown> & { type: string }) => {
    sent.push(request);
    if (request.type === 'xipe-toolbar:get_state')
      return {
        collection: { source_url: location.href, started_at: '', elements: [], colors: [], typography: {} },
        host_connected: true,
      };
    if (request.type === 'xipe-toolbar:list_ideas') return { workspaces: [] };
    if (request.type === 'xipe-toolbar:get_crop') return { data_url: null };
    const item = (draft: unknown) => ({
      ...(draft as object),
      key: `k${sent.length}`,
      created_at: '',
      crop: { width: 300, height: 200 },
    });
    if (request.type === 'xipe-toolbar:capture_element') {
      captured = item(request.draft);
      return captured;
    }
    if (request.type === 'xipe-toolbar:deep_capture') {
      await deepGate;
      if (request.instruction === 'fail') throw new Error('The page navigated away.');
      return { ...captured, deep: { ...DEEP, instruction: request.instruction } };
    }
    if (request.type === 'xipe-toolbar:remove_item')
      return { source_url: location.href, started_at: '', elements: [], colors: [], typography: {} };
    throw new Error(`unexpected ${request.type}`);
  }),
}));
const { ToolbarApp } = await import('./app.js');

let shadow: ShadowRoot;
let app: InstanceType<typeof ToolbarApp>;

beforeEach(() => {
  sent.length = 0;
  entered.length = 0;
  confirm.mockReset();
  runJob = null;
  // The toolbar's shadow root is closed; keep a handle to it as DevTools would.
  const attach = Element.prototype.attachShadow;
  vi.spyOn(Element.prototype, 'attachShadow').mockImplementation(function (this: Element, init) {
    shadow = attach.call(this, init);
    return shadow;
  });
  app = new ToolbarApp();
});

afterEach(() => {
  app.destroy();
  vi.restoreAllMocks();
});

const button = (name: string) => {
  const b = shadow.querySelector<HTMLButtonElement>(`.mode[data-mode="${name}"]`);
  if (!b) throw new Error(`no ${name} button`);
  return b;
};
const pressed = () =>
  [...shadow.querySelectorAll('.mode[aria-pressed="true"]')].map((b) => b.getAttribute('data-mode'));
const status = () => shadow.querySelector('.status')?.textContent;
const last = () => {
  const e = entered.at(-1);
  if (!e) throw new Error('no mode entered');
  return e;
};
const key = (k: string, init: KeyboardEventInit = {}) =>
  window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('toolbar controller', () => {
  it('builds one button per registered mode, in order', () => {
    expect([...shadow.querySelectorAll('.mode')].map((b) => b.getAttribute('data-mode'))).toEqual([
      'alpha',
      'beta',
      'run',
    ]);
    expect(button('alpha').title).toBe('alpha (A)');
  });

  it('turns a mode on with its button and off with it again', async () => {
    button('alpha').click();
    await settle();
    expect(last().mode).toBe('alpha');
    expect(pressed()).toEqual(['alpha']);
    expect(status()).toBe('alpha hint');
    button('alpha').click();
    expect(last().ctx.signal.aborted).toBe(true);
    expect(pressed()).toEqual([]);
    expect(status()).toBe('Ready.');
  });

  it('keeps one mode on: the next one ends the last, and its overlays go', async () => {
    button('alpha').click();
    await settle();
    const alpha = last().ctx;
    alpha.overlay.append(document.createElement('div'));
    button('beta').click();
    await settle();
    expect(alpha.signal.aborted).toBe(true);
    expect(alpha.overlay.childElementCount).toBe(0);
    expect(last().mode).toBe('beta');
    expect(pressed()).toEqual(['beta']);
  });

  it('stops a tool on Esc and confirms it on Enter, from anywhere in the page', async () => {
    button('alpha').click();
    await settle();
    key('Enter');
    expect(confirm).toHaveBeenCalledTimes(1);
    key('Escape');
    expect(last().ctx.signal.aborted).toBe(true);
    key('Enter');
    expect(confirm).toHaveBeenCalledTimes(1);
  });

  it('leaves Enter typed in a field to the field while a tool is on, in the toolbar or the page', async () => {
    button('alpha').click();
    await settle();
    const note = document.createElement('textarea');
    shadow.querySelector('.panel')?.append(note);
    note.focus();
    note.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    const search = document.createElement('input');
    document.body.append(search);
    search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    expect(confirm).not.toHaveBeenCalled();
    note.blur();
    key('Enter');
    expect(confirm).toHaveBeenCalledTimes(1);
    // A checkbox just clicked (deep capture off) keeps the focus: Enter still captures.
    const toggle = document.createElement('input');
    toggle.type = 'checkbox';
    shadow.querySelector('.panel')?.append(toggle);
    toggle.focus();
    toggle.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    expect(confirm).toHaveBeenCalledTimes(2);
    search.remove();
  });

  it('takes mode shortcuts inside the toolbar, but not while typing or with modifiers', async () => {
    const panel = shadow.querySelector('.panel');
    panel?.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', bubbles: true, composed: true }));
    await settle();
    expect(last().mode).toBe('beta');
    panel?.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', ctrlKey: true, bubbles: true }));
    const note = document.createElement('textarea');
    panel?.append(note);
    note.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    await settle();
    expect(entered.map((e) => e.mode)).toEqual(['beta']);
  });

  it('takes mode shortcuts from the page too (after opening, after Esc), never from its text fields', async () => {
    key('b');
    await settle();
    expect(last().mode).toBe('beta');
    key('Escape');
    key('a');
    await settle();
    expect(last().mode).toBe('alpha');
    const search = document.createElement('input');
    document.body.append(search);
    search.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', bubbles: true, composed: true }));
    const editor = document.createElement('div');
    editor.contentEditable = 'true';
    document.body.append(editor);
    editor.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', bubbles: true, composed: true }));
    await settle();
    expect(last().mode).toBe('alpha');
    search.remove();
    editor.remove();
  });

  it('captures on Enter typed in the instruction field', async () => {
    button('beta').click();
    await settle();
    const instruction = shadow.querySelector<HTMLInputElement>('.options .instruction');
    if (!instruction) throw new Error('no instruction field');
    instruction.focus();
    instruction.value = 'Rebuild the header';
    instruction.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    expect(confirm).toHaveBeenCalledTimes(1);
  });

  it('removes with Undo: the item goes from the list at once and comes back whole on Ctrl+Z', async () => {
    button('alpha').click();
    await settle();
    await last().ctx.captureElement(document.body, 'element', { x: 0, y: 0, width: 100, height: 100 });
    const items = () => shadow.querySelectorAll('.list .item').length;
    expect(items()).toBe(1);
    shadow.querySelector<HTMLButtonElement>('.list .item button[aria-label="Remove"]')?.click();
    await settle();
    expect(items()).toBe(0);
    expect(status()).toMatch(/^Removed html > body\. Undo/);
    key('z', { ctrlKey: true });
    await settle();
    expect(items()).toBe(1);
    expect(sent.map((r) => r.type)).not.toContain('xipe-toolbar:remove_item');
    // Removed again and the toolbar closed: the removal is made for good.
    shadow.querySelector<HTMLButtonElement>('.list .item button[aria-label="Remove"]')?.click();
    await settle();
    app.destroy();
    await settle();
    expect(sent.filter((r) => r.type === 'xipe-toolbar:remove_item')).toHaveLength(1);
  });

  it('lets a run finish: Esc and other modes do not cancel it, and its end leaves them alone', async () => {
    button('run').click();
    await settle();
    const runCtx = last().ctx;
    key('Escape');
    expect(pressed()).toEqual(['run']);
    button('alpha').click();
    await settle();
    expect(runCtx.signal.aborted).toBe(false);
    expect(pressed()).toEqual(['alpha']);
    runJob?.release();
    await settle();
    expect(status()).toBe('run done');
    expect(pressed()).toEqual(['alpha']);
    expect(last().ctx.signal.aborted).toBe(false);
  });

  it('does not start a run while a capture is busy', async () => {
    button('run').click();
    await settle();
    button('run').click(); // turns the button off; the job goes on
    button('run').click();
    await settle();
    expect(entered.map((e) => e.mode)).toEqual(['run']);
    runJob?.release();
  });

  it('stops the mode when the panel collapses, and ends everything when it closes', async () => {
    button('alpha').click();
    await settle();
    const collapse = shadow.querySelector<HTMLButtonElement>('.head button[aria-label^="Collapse"]');
    collapse?.click();
    expect(last().ctx.signal.aborted).toBe(true);
    button('beta').click();
    await settle();
    const host = document.querySelector('x-ipe-uiux-toolbar');
    expect(host).not.toBeNull();
    shadow.querySelector<HTMLButtonElement>('.head button[aria-label="Close toolbar"]')?.click();
    expect(last().ctx.signal.aborted).toBe(true);
    expect(document.querySelector('x-ipe-uiux-toolbar')).toBeNull();
    expect(app.isOpen()).toBe(false);
  });

  it('offers deep capture with an instruction for modes that have it, on by default there', async () => {
    const options = shadow.querySelector<HTMLElement>('.options');
    button('alpha').click();
    await settle();
    expect(options?.hidden).toBe(true);
    button('beta').click();
    await settle();
    expect(options?.hidden).toBe(false);
    const toggle = shadow.querySelector<HTMLInputElement>('.options .deep-toggle');
    const instruction = shadow.querySelector<HTMLInputElement>('.options .instruction');
    expect(toggle?.checked).toBe(true);
    expect(instruction?.disabled).toBe(false);
    // Typing in the field is not a mode shortcut.
    instruction?.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true, composed: true }));
    await settle();
    expect(last().mode).toBe('beta');
  });

  it('deep-captures after the crop with the instruction, then lists the counts; the instruction is used once', async () => {
    button('beta').click();
    await settle();
    const instruction = shadow.querySelector<HTMLInputElement>('.options .instruction');
    if (!instruction) throw new Error('no instruction field');
    instruction.value = 'Rebuild the pricing cards';
    const main = document.createElement('main');
    document.body.append(main);
    window.scrollTo(0, 0);
    await last().ctx.captureElement(main, 'area', { x: 10, y: 20, width: 300, height: 200 });
    const deep = sent.find((r) => r.type === 'xipe-toolbar:deep_capture');
    expect(deep).toMatchObject({
      instruction: 'Rebuild the pricing cards',
      rect: { x: 10, y: 20, width: 300, height: 200 },
    });
    expect(sent.findIndex((r) => r.type === 'xipe-toolbar:capture_element')).toBeLessThan(
      sent.indexOf(deep ?? {}),
    );
    // The crop in the window's turn; the deep capture, which reads the page only, after it.
    const order = ['turn:hold', 'xipe-toolbar:capture_element', 'turn:release', 'xipe-toolbar:deep_capture'];
    const at = order.map((type) => sent.findIndex((r) => r.type === type));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(status()).toMatch(
      /^Deep-captured main: 143 elements, 12 fonts and images \(1 could not be fetched\) in \d+ ms\.$/,
    );
    expect(shadow.querySelector('.list .item .deep')?.textContent).toBe(
      'deep · 143 elements · 12 resources · 1 not fetched',
    );
    expect(shadow.querySelector<HTMLTextAreaElement>('.list .item textarea.instruction')?.value).toBe(
      'Rebuild the pricing cards',
    );
    expect(instruction.value).toBe('');
  });

  it('keeps the plain capture and says why when the deep part fails', async () => {
    button('beta').click();
    await settle();
    const instruction = shadow.querySelector<HTMLInputElement>('.options .instruction');
    if (instruction) instruction.value = 'fail';
    await last().ctx.captureElement(document.body, 'area', { x: 0, y: 0, width: 100, height: 100 });
    expect(status()).toBe(
      'Deep capture failed (The page navigated away); the plain capture of html > body is kept.',
    );
    expect(shadow.querySelectorAll('.list .item')).toHaveLength(1);
    expect(shadow.querySelector('.list .item .deep')).toBeNull();
  });

  it('captures as before with deep capture off, and remembers the choice for the mode', async () => {
    button('beta').click();
    await settle();
    const toggle = shadow.querySelector<HTMLInputElement>('.options .deep-toggle');
    if (!toggle) throw new Error('no toggle');
    toggle.click();
    expect(shadow.querySelector<HTMLInputElement>('.options .instruction')?.disabled).toBe(true);
    await last().ctx.captureElement(document.body, 'area', { x: 0, y: 0, width: 100, height: 100 });
    expect(sent.map((r) => r.type)).not.toContain('xipe-toolbar:deep_capture');
    expect(status()).toMatch(/^Captured html > body \(100×100 px\) in \d+ ms\.$/);
    button('alpha').click();
    button('beta').click();
    await settle();
    expect(toggle.checked).toBe(false);
  });

  it('shows a finished deep capture in its row, leaving a note being typed in another row alone', async () => {
    button('alpha').click();
    await settle();
    await last().ctx.captureElement(document.body, 'element', { x: 0, y: 0, width: 100, height: 100 });
    let release: () => void = () => undefined;
    deepGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    button('beta').click();
    await settle();
    const capturing = last().ctx.captureElement(document.body, 'area', {
      x: 0,
      y: 0,
      width: 100,
      height: 100,
    });
    // The crop waits for the veil's paint: wait for the deep part to be under way.
    await vi.waitFor(() =>
      expect(shadow.querySelector('.list .item:nth-child(2) .deep')?.textContent).toBe('Deep capture…'),
    );
    const note = shadow.querySelector<HTMLTextAreaElement>('.list .item textarea');
    if (!note) throw new Error('no note field');
    note.value = 'Half-typed no';
    release();
    await capturing;
    expect(shadow.querySelector('.list .item:nth-child(2) .deep')?.textContent).toMatch(
      /^deep · 143 elements/,
    );
    expect(shadow.querySelector('.list .item textarea')).toBe(note);
    expect(note.value).toBe('Half-typed no');
    deepGate = Promise.resolve();
  });
});
