import { h } from '../dom.js';
import type { ToolbarMode } from '../modes/mode.js';
import { trusted } from '../trusted.js';

/** What the next capture gets when deep capture is on. */
export interface DeepChoice {
  instruction: string;
}

/**
 * The "Deep capture" switch and the instruction field under the mode buttons, shown while a mode
 * that offers them is on (`ToolbarMode.deepCapture`). The switch is remembered per mode while the
 * toolbar is open; an instruction belongs to the next capture and is cleared once taken.
 */
export class DeepOptions {
  private readonly toggle = h('input', { type: 'checkbox', class: 'deep-toggle' });
  private readonly instruction = h('input', {
    type: 'text',
    class: 'instruction',
    maxlength: 65_536,
    placeholder: 'Instruction (optional), Enter captures',
    'aria-label': 'Instruction for the deep capture',
  });
  private readonly chosen = new Map<string, boolean>();
  private mode: ToolbarMode | null = null;
  /** The row is blank, keeping its place until the pointer leaves the panel. */
  private leaving = false;

  constructor(
    private readonly el: HTMLElement,
    private readonly signal: AbortSignal,
  ) {
    const label = h(
      'label',
      { title: 'Also capture structure, styles, fonts and images as a standalone clone' },
      this.toggle,
      'Deep capture',
    );
    el.append(label, this.instruction);
    el.hidden = true;
    this.toggle.addEventListener(
      'change',
      trusted(() => {
        if (this.mode) this.chosen.set(this.mode.name, this.toggle.checked);
        this.instruction.disabled = !this.toggle.checked;
      }),
      { signal },
    );
  }

  /** Shows the options of the mode now on; hidden for a mode without them (or none). */
  show(mode: ToolbarMode | null): void {
    this.mode = mode?.deepCapture ? mode : null;
    if (this.mode === null) {
      this.hide();
      return;
    }
    this.el.hidden = false;
    this.el.style.visibility = '';
    this.toggle.checked = this.isOn(this.mode);
    this.instruction.disabled = !this.toggle.checked;
  }

  /**
   * Hidden at once, unless the pointer is in the panel. A tool finishes on its own once its capture
   * is stored, and the row's height going then would move everything under it just as the designer
   * reaches for it (a click meant for a note could land on another item's Remove). So the row
   * stays, blank, until the pointer leaves the panel, as a browser's tab strip keeps its tabs'
   * width after one is closed.
   */
  private hide(): void {
    if (this.el.hidden) return;
    const panel = this.el.closest('.panel');
    if (!panel?.matches(':hover')) {
      this.el.hidden = true;
      this.el.style.visibility = '';
      return;
    }
    this.el.style.visibility = 'hidden';
    if (this.leaving) return;
    this.leaving = true;
    panel.addEventListener(
      'pointerleave',
      trusted(() => {
        this.leaving = false;
        if (this.mode !== null) return;
        this.el.hidden = true;
        this.el.style.visibility = '';
      }),
      { once: true, signal: this.signal },
    );
  }

  /** The instruction field, where Enter captures (the field has one line). */
  isInstruction(target: EventTarget | null): boolean {
    return target === this.instruction;
  }

  isOn(mode: ToolbarMode): boolean {
    return this.chosen.get(mode.name) ?? mode.deepCapture?.on ?? false;
  }

  /** What a capture in `mode` gets: null when deep capture is off; the instruction is used up. */
  take(mode: ToolbarMode): DeepChoice | null {
    if (!mode.deepCapture || !this.isOn(mode)) return null;
    const instruction = this.instruction.value.trim();
    this.instruction.value = '';
    return { instruction };
  }
}
