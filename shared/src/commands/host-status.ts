import { z } from 'zod';
import { HostInfo } from '../envelopes.js';

/** Answered by the host itself (never relayed): who it is and whether an extension is attached. */
export const HOST_STATUS = 'host_status';

export const HostStatusParams = z.object({}).strict();
export const HostStatusResult = HostInfo;
export type HostStatusResult = z.infer<typeof HostStatusResult>;
