import { z } from 'zod';

/**
 * Written by each live host as `<runtime dir>/h-<pid>.json` (mode 0600) next to its endpoint, and
 * removed on exit. MCP servers list these to discover hosts; a descriptor whose pid is dead or
 * whose endpoint refuses connections is stale and is removed by whoever finds it.
 */
export const EndpointDescriptor = z.object({
  pid: z.number().int().positive(),
  endpoint: z.string().min(1),
  protocol: z.number().int(),
  host_version: z.string(),
  started_at: z.string(),
});
export type EndpointDescriptor = z.infer<typeof EndpointDescriptor>;
