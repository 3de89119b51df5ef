import { HostStatusParams, type HostStatusResult } from '#shared/commands/host-status.js';
import { validationError } from '#shared/errors.js';
import type { HostHandler } from './types.js';

/** `host_status`: who this host is and whether an extension is attached. */
export const hostStatus: HostHandler = async (params, ctx): Promise<HostStatusResult> => {
  const parsed = HostStatusParams.safeParse(params ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'host_status params', params ?? {});
  return ctx.hostInfo();
};
