import { COMPARE_WITH_REFERENCE } from '#shared/commands/compare-with-reference.js';
import { EVENTS_SINCE } from '#shared/commands/events-since.js';
import { HOST_STATUS } from '#shared/commands/host-status.js';
import { LIST_IDEAS } from '#shared/commands/list-ideas.js';
import { NEXT_REFERENCE_IDS } from '#shared/commands/next-reference-ids.js';
import { AREA_IMAGE, LIST_AREAS } from '#shared/commands/reference-areas.js';
import { SAVE_AREA } from '#shared/commands/save-area.js';
import { SAVE_REFERENCE } from '#shared/commands/save-reference.js';
import { SAVE_SCREENSHOT } from '#shared/commands/save-screenshot.js';
import { STAGE_IMAGE } from '#shared/commands/stage-image.js';
import { compareWithReferenceHandler } from './compare-with-reference.js';
import { eventsSince } from './events-since.js';
import { hostStatus } from './host-status.js';
import { listIdeasHandler } from './list-ideas.js';
import { nextReferenceIds } from './next-reference-ids.js';
import { areaImageHandler, listAreasHandler } from './reference-areas.js';
import { saveAreaHandler } from './save-area.js';
import { saveReferenceHandler } from './save-reference.js';
import { saveScreenshotHandler } from './save-screenshot.js';
import { stageImageHandler } from './stage-image.js';
import type { HostHandler } from './types.js';

export type { HostHandler, HostHandlerContext, RequestSource } from './types.js';

/**
 * Every command the host answers itself (COMMANDS entries with handledBy 'host'), one file each.
 * A unit test checks this map and COMMANDS agree both ways.
 */
export const HOST_HANDLERS: Record<string, HostHandler> = {
  [HOST_STATUS]: hostStatus,
  [SAVE_REFERENCE]: saveReferenceHandler,
  [SAVE_AREA]: saveAreaHandler,
  [LIST_IDEAS]: listIdeasHandler,
  [NEXT_REFERENCE_IDS]: nextReferenceIds,
  [SAVE_SCREENSHOT]: saveScreenshotHandler,
  [EVENTS_SINCE]: eventsSince,
  [STAGE_IMAGE]: stageImageHandler,
  [COMPARE_WITH_REFERENCE]: compareWithReferenceHandler,
  [LIST_AREAS]: listAreasHandler,
  [AREA_IMAGE]: areaImageHandler,
};
