import { vi } from 'vitest';
import type { CollectedElement, CssRect } from '#shared/toolbar-messages.js';
import type { ModeContext } from '../../extension/src/content/toolbar/modes/mode.js';
import type { Pixels } from '../../extension/src/content/toolbar/pixels.js';

/**
 * For the modes' unit tests (happy-dom): a page with a made-up layout, and a ModeContext whose
 * calls are recorded. happy-dom does no layout, so boxes are assigned by hand and hit testing
 * (document.elementsFromPoint) answers from them, deepest element first, as a browser would.
 */

const boxes = new Map<Element, CssRect>();

/** Gives an element a viewport box (CSS px). */
export function layout(el: Element, rect: CssRect): void {
  boxes.set(el, rect);
  el.getBoundingClientRect = () => DOMRect.fromRect(rect);
}

function depth(el: Element): number {
  let n = 0;
  for (let p = el.parentElement; p; p = p.parentElement) n++;
  return n;
}

/** Installs hit testing from the assigned boxes; call once per test file (in beforeEach). */
export function installLayout(viewport = { width: 1000, height: 800 }): void {
  boxes.clear();
  Object.assign(window, { innerWidth: viewport.width, innerHeight: viewport.height });
  document.elementsFromPoint = (x: number, y: number) =>
    [...boxes]
      .filter(([el, r]) => el.isConnected && x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height)
      .map(([el]) => el)
      .sort((a, b) => depth(b) - depth(a));
  // happy-dom has no pointer capture bookkeeping worth testing; a no-op keeps handlers running.
  Element.prototype.setPointerCapture = () => undefined;
}

/** A pointer event as the browser sends it to the shield (happy-dom's PointerEvent lacks coordinates). */
export function pointer(type: string, x: number, y: number, init: { button?: number } = {}): MouseEvent {
  return new MouseEvent(type, {
    clientX: x,
    clientY: y,
    button: init.button ?? 0,
    bubbles: true,
    cancelable: true,
  });
}

export interface FakeContext extends ModeContext {
  abort: AbortController;
  statuses: string[];
  busyNow: boolean;
  veilState: { lowered: CssRect | null | undefined };
}

/** A ModeContext whose side effects are vi.fn()s; `abort.abort()` ends the mode as the controller would. */
export function fakeContext(): FakeContext {
  const overlay = document.createElement('div');
  document.body.append(overlay);
  const abort = new AbortController();
  const statuses: string[] = [];
  const veilState: { lowered: CssRect | null | undefined } = { lowered: undefined };
  const ctx: FakeContext = {
    abort,
    statuses,
    busyNow: false,
    veilState,
    signal: abort.signal,
    overlay,
    veil: {
      lower: vi.fn(async (hole: CssRect | null) => {
        veilState.lowered = hole;
      }),
      lift: vi.fn(() => {
        veilState.lowered = undefined;
      }),
      get lowered() {
        return veilState.lowered !== undefined;
      },
    },
    get busy() {
      return ctx.busyNow;
    },
    panelRect: () => ({ x: -1000, y: -1000, width: 0, height: 0 }),
    avoid: vi.fn(),
    setStatus: vi.fn((text: string) => {
      statuses.push(text);
    }),
    progress: vi.fn(),
    fail: vi.fn(),
    selectorOf: vi.fn((el: Element) => (el.id ? `#${el.id}` : el.localName)),
    suggestedRole: vi.fn(() => 'custom' as const),
    captureElement: vi.fn(async () => undefined),
    addColor: vi.fn(async () => undefined),
    sample: vi.fn(async (_rect: CssRect): Promise<Pixels | null> => null),
    restFrame: vi.fn(async (_rect: CssRect): Promise<string | null> => null),
    preview: vi.fn(),
    cancelPreview: vi.fn(),
    async exclusive<T>(job: () => Promise<T>): Promise<T> {
      ctx.busyNow = true;
      try {
        return await job();
      } finally {
        ctx.busyNow = false;
      }
    },
    added: vi.fn((_item: CollectedElement) => undefined),
    stop: vi.fn(() => abort.abort()),
    finish: vi.fn(() => abort.abort()),
  };
  return ctx;
}

/** Waits for queued animation frames and timers (happy-dom runs rAF on a timer). */
export async function frames(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
