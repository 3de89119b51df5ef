import type { CollectedElement, ColorDraft, ColorRole, CssRect } from '#shared/toolbar-messages.js';
import type { CaptureVeil } from '../capture-veil.js';
import type { Pixels } from '../pixels.js';
import type { StatusKind } from '../status-line.js';

/**
 * A toolbar mode (element, area, colour, full page…): one module each, registered in modes/index.ts.
 * The controller (app.ts) turns modes on and off, keeps one on at a time, and hands each a narrow
 * context; a mode never reaches into the panel or the collection itself. Adding a mode is one new
 * file plus one line in the registry.
 */
export interface ToolbarMode {
  /** `data-mode` of its button; also what the status and tests call it. */
  readonly name: string;
  readonly label: string;
  /** Keyboard shortcut while the panel is open and no text field has the focus (lower case). */
  readonly key: string;
  /** Static SVG for its button (icons.ts). */
  readonly icon: string;
  /** Status line shown when the mode turns on. */
  readonly hint: string;
  /**
   * `tool`: stays on until Esc, its button again, collapsing or closing the toolbar; `ctx.signal`
   * ends with it. `run`: one job (the full page) that does not start while a capture is busy and
   * runs to its end: Esc and the buttons do not cancel it, only closing the toolbar does.
   */
  readonly kind: 'tool' | 'run';
  /**
   * Offers "Deep capture" with an instruction field while the mode is on (docs/design.md §7): a capture
   * then also becomes an area an agent can rebuild from (views/deep-options.ts). `on`: the default.
   */
  readonly deepCapture?: { readonly on: boolean };
  /**
   * Turns the mode on. Whatever it adds (listeners, overlay elements) must go when `ctx.signal`
   * aborts. May return a session whose `confirm` the Enter key calls while the mode is on.
   */
  enter(ctx: ModeContext): ModeSession | undefined | Promise<ModeSession | undefined>;
}

export interface ModeSession {
  /** Enter while the mode is on (area: capture the selection). */
  confirm?(): void;
}

/** What a mode may use: the controller builds one per activation. */
export interface ModeContext {
  /** Aborts when this activation ends (a `run`: when the toolbar closes); every listener uses it. */
  readonly signal: AbortSignal;
  /** The overlay layer inside the toolbar's shadow root; emptied when the mode ends. */
  readonly overlay: HTMLElement;
  /** Hides the toolbar and masks around a crop while the worker captures (capture-veil.ts). */
  readonly veil: Pick<CaptureVeil, 'lower' | 'lift' | 'lowered'>;
  /** A capture is in flight: new ones are refused until it ends. */
  readonly busy: boolean;
  /** The panel's rectangle in the viewport (what a mode's own controls must keep clear of). */
  panelRect(): CssRect;
  /** The designer is pointing at or selecting `rect` (viewport CSS px): the panel moves off it. */
  avoid(rect: CssRect): void;
  setStatus(text: string, kind?: StatusKind): void;
  progress(text: string, fraction: number): void;
  fail(err: unknown): void;
  /** A unique selector for a page element (cached per element). */
  selectorOf(el: Element): string;
  /** The role the page palette suggests for a colour, else `custom`. */
  suggestedRole(hex: string): ColorRole;
  /**
   * Captures an element or area (styles, crop) into the collection and reports it; with deep
   * capture on in the panel, the area's structure, styles and files too.
   */
  captureElement(el: Element, kind: 'element' | 'area', rect: CssRect): Promise<void>;
  addColor(draft: ColorDraft): Promise<void>;
  /**
   * Captures the viewport while the pointer rests on `rect` (for an instant preview on the press);
   * null when that would delay a capture, or the panel covers the rectangle.
   */
  restFrame(rect: CssRect): Promise<string | null>;
  /** Shows the element at once from that frame (once it is there) while its exact capture runs. */
  preview(frame: Promise<string | null>, el: Element, rect: CssRect): void;
  /** The press ended in no capture: the preview goes. */
  cancelPreview(): void;
  /** The painted pixels of a viewport rectangle (captured with the toolbar hidden); null if off-screen or busy. */
  sample(rect: CssRect): Promise<Pixels | null>;
  /** Runs a capture job with the toolbar busy meanwhile (other captures are refused). */
  exclusive<T>(job: () => Promise<T>): Promise<T>;
  /** Lists an item the worker has already stored (a job's result). */
  added(item: CollectedElement): void;
  /** Ends this mode as Esc does (the status says "Ready."). */
  stop(): void;
  /** Ends this mode when its job is done (the status keeps what the job said). */
  finish(): void;
}
