import { spawnSync } from 'node:child_process';

/**
 * Node (V8) flags for the two long-lived processes other programs start: the native host (through
 * the launcher `x-ipe-uiux install` writes) and the MCP server (through the configs `x-ipe-uiux
 * init` writes). Both idle between short bursts of relaying and file I/O:
 *
 * --max-semi-space-size=1  caps the young generation at 1 MiB per semi-space instead of the 8 MiB
 *                          it grows to during start-up; large payloads live outside it, so idle
 *                          memory drops while the bench's save and inject times do not move
 *                          (bench/README.md).
 *
 * The optimizing compilers stay on: turning them off saved a few MB of idle memory and cost the
 * speed that memo layers then had to buy back.
 *
 * Flags go on the command line: re-executing Node to add them would keep a second process alive,
 * and NODE_OPTIONS would leak into every Node process the agent starts.
 */
export const HOST_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];
export const MCP_NODE_FLAGS: readonly string[] = HOST_NODE_FLAGS;

/**
 * The flags of `wanted` that this Node binary accepts. V8 flags come and go between Node versions
 * and Node refuses to start on an unknown one, so install and init keep only what the node they
 * pin really takes: a missing flag costs memory, a rejected one would stop the process.
 */
export function acceptedNodeFlags(nodePath: string, wanted: readonly string[]): string[] {
  const accepts = (flags: readonly string[]): boolean =>
    spawnSync(nodePath, [...flags, '-e', ''], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  if (accepts(wanted)) return [...wanted];
  return wanted.filter((flag) => accepts([flag]));
}
