import { areaMode } from './area.js';
import { colorMode } from './color.js';
import { elementMode } from './element.js';
import type { ToolbarMode } from './mode.js';
import { pageMode } from './page.js';

export type { ModeContext, ModeSession, ToolbarMode } from './mode.js';

/** The toolbar's modes, in button order. A new mode is one module and one entry here. */
export const MODES: readonly ToolbarMode[] = [elementMode, areaMode, colorMode, pageMode];
