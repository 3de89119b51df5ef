import { HOST_STATUS } from '../../../shared/src/commands/host-status.js';
import { hostStatus } from './host-status.js';
import type { HostHandler } from './types.js';

export type { HostHandler, HostHandlerContext, RequestSource } from './types.js';

/**
 * Every command the host answers itself (COMMANDS entries with handledBy 'host'), one file each.
 * A unit test checks this map and COMMANDS agree both ways.
 */
export const HOST_HANDLERS: Record<string, HostHandler> = {
  [HOST_STATUS]: hostStatus,
};
