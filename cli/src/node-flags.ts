/**
 * Node (V8) flags for the two long-lived processes other programs start: the native host (through
 * the launcher `x-ipe-uiux install` writes) and the MCP server (through the configs `x-ipe-uiux
 * init` writes). Both idle between short bursts, so they trade a little peak throughput for a
 * small resident size (issue 7: each idle process ≤ 60 MB RSS):
 *
 * --max-semi-space-size=1  caps the young generation at 1 MiB per semi-space instead of growing it
 *                          to 8 MiB after start-up; large payloads (screenshots, scripts) are
 *                          allocated outside it, so saves and injections are not slowed.
 *
 * Flags go on the command line: re-executing Node to add them would keep a second process alive,
 * and NODE_OPTIONS would leak into every Node process the agent starts.
 */
export const HOST_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];
export const MCP_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];
