import { h } from '../dom.js';
import type { ToolbarMode } from '../modes/mode.js';

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
    placeholder: 'Instruction (optional)',
    'aria-label': 'Instruction for the deep capture',
  });
  private readonly chosen = new Map<string, boolean>();
  private mode: ToolbarMode | null = null;

  constructor(
    private readonly el: HTMLElement,
    signal: AbortSignal,
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
      () => {
        if (this.mode) this.chosen.set(this.mode.name, this.toggle.checked);
        this.instruction.disabled = !this.toggle.checked;
      },
      { signal },
    );
  }

  /** Shows the options of the mode now on; hidden for a mode without them (or none). */
  show(mode: ToolbarMode | null): void {
    this.mode = mode?.deepCapture ? mode : null;
    this.el.hidden = this.mode === null;
    if (this.mode === null) return;
    this.toggle.checked = this.isOn(this.mode);
    this.instruction.disabled = !this.toggle.checked;
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
