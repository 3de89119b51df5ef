import type { z } from 'zod';
import {
  AREA_PIXELS,
  AreaPixelsParams,
  AreaPixelsResult,
  CAPTURE_AREA,
  CaptureAreaAnswer,
  CaptureAreaParams,
} from './capture-area.js';
import {
  CAPTURE_SCREENSHOT,
  CaptureScreenshotParams,
  CaptureScreenshotResult,
} from './capture-screenshot.js';
import {
  COMPARE_WITH_REFERENCE,
  CompareWithReferenceParams,
  CompareWithReferenceResult,
} from './compare-with-reference.js';
import { EVENTS_SINCE, EventsSinceParams, EventsSinceResult } from './events-since.js';
import { FETCH_RESOURCE, FetchResourceParams, FetchResourceResult } from './fetch-resource.js';
import { HOST_STATUS, HostStatusParams, HostStatusResult } from './host-status.js';
import { INJECT_SCRIPT, InjectScriptParams, InjectScriptResult } from './inject-script.js';
import { INJECT_TOOLBAR, InjectToolbarParams, InjectToolbarResult } from './inject-toolbar.js';
import { LIST_IDEAS, ListIdeasParams, ListIdeasResult } from './list-ideas.js';
import { LIST_TABS, ListTabsParams, ListTabsResult } from './list-tabs.js';
import { NEXT_REFERENCE_IDS, NextReferenceIdsParams, NextReferenceIdsResult } from './next-reference-ids.js';
import {
  AREA_IMAGE,
  AreaImageParams,
  AreaImageResult,
  LIST_AREAS,
  ListAreasParams,
  ListAreasResult,
} from './reference-areas.js';
import { RENDER_CANDIDATE, RenderCandidateParams, RenderCandidateResult } from './render-candidate.js';
import { SAVE_AREA, SaveAreaParams, SaveAreaResult } from './save-area.js';
import { SAVE_REFERENCE, SaveReferenceParams, SaveReferenceResult } from './save-reference.js';
import { SAVE_SCREENSHOT, SaveScreenshotParams, SaveScreenshotResult } from './save-screenshot.js';
import { STAGE_IMAGE, StageImageParams, StageImageResult } from './stage-image.js';

export * from './capture-area.js';
export * from './capture-queue.js';
export * from './capture-screenshot.js';
export * from './compare-with-reference.js';
export * from './events-since.js';
export * from './fetch-resource.js';
export * from './host-status.js';
export * from './inject-script.js';
export * from './inject-toolbar.js';
export * from './list-ideas.js';
export * from './list-tabs.js';
export * from './next-reference-ids.js';
export * from './reference-areas.js';
export * from './render-candidate.js';
export * from './save-area.js';
export * from './save-reference.js';
export * from './save-screenshot.js';
export * from './stage-image.js';
export * from './target.js';

/** Who answers a command: relayed to the extension, or handled by the native host itself. */
export type CommandHandler = 'extension' | 'host';

export interface CommandSpec {
  readonly handledBy: CommandHandler;
  readonly params: z.ZodType;
  readonly result: z.ZodType;
}

/** Every bridge command, its handler and its schemas. Tests check each has exactly one handler. */
export const COMMANDS = {
  [LIST_TABS]: { handledBy: 'extension', params: ListTabsParams, result: ListTabsResult },
  [INJECT_SCRIPT]: { handledBy: 'extension', params: InjectScriptParams, result: InjectScriptResult },
  [HOST_STATUS]: { handledBy: 'host', params: HostStatusParams, result: HostStatusResult },
  [SAVE_REFERENCE]: { handledBy: 'host', params: SaveReferenceParams, result: SaveReferenceResult },
  [LIST_IDEAS]: { handledBy: 'host', params: ListIdeasParams, result: ListIdeasResult },
  [NEXT_REFERENCE_IDS]: { handledBy: 'host', params: NextReferenceIdsParams, result: NextReferenceIdsResult },
  [INJECT_TOOLBAR]: { handledBy: 'extension', params: InjectToolbarParams, result: InjectToolbarResult },
  [CAPTURE_SCREENSHOT]: {
    handledBy: 'extension',
    params: CaptureScreenshotParams,
    result: CaptureScreenshotResult,
  },
  [SAVE_SCREENSHOT]: { handledBy: 'host', params: SaveScreenshotParams, result: SaveScreenshotResult },
  [EVENTS_SINCE]: { handledBy: 'host', params: EventsSinceParams, result: EventsSinceResult },
  [CAPTURE_AREA]: { handledBy: 'extension', params: CaptureAreaParams, result: CaptureAreaAnswer },
  [AREA_PIXELS]: { handledBy: 'extension', params: AreaPixelsParams, result: AreaPixelsResult },
  [FETCH_RESOURCE]: { handledBy: 'extension', params: FetchResourceParams, result: FetchResourceResult },
  [SAVE_AREA]: { handledBy: 'host', params: SaveAreaParams, result: SaveAreaResult },
  [STAGE_IMAGE]: { handledBy: 'host', params: StageImageParams, result: StageImageResult },
  [RENDER_CANDIDATE]: {
    handledBy: 'extension',
    params: RenderCandidateParams,
    result: RenderCandidateResult,
  },
  [COMPARE_WITH_REFERENCE]: {
    handledBy: 'host',
    params: CompareWithReferenceParams,
    result: CompareWithReferenceResult,
  },
  [LIST_AREAS]: { handledBy: 'host', params: ListAreasParams, result: ListAreasResult },
  [AREA_IMAGE]: { handledBy: 'host', params: AreaImageParams, result: AreaImageResult },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
export type CommandParams<C extends CommandName> = z.input<(typeof COMMANDS)[C]['params']>;
export type CommandResult<C extends CommandName> = z.infer<(typeof COMMANDS)[C]['result']>;

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
