import { z } from 'zod';
import { defineTool } from './define-tool.js';

export const WAIT_DEFAULT_MS = 30_000;
export const WAIT_MAX_MS = 120_000;

export const waitForCapturesTool = defineTool({
  name: 'wait_for_captures',
  description:
    'Wait for what the designer does in the toolbar (inject_toolbar): element_picked, area_picked, color_picked, ' +
    'note_added, session_saved, deep_capture_saved (with file paths). Returns at once with every event not yet ' +
    'returned, else waits up to `timeout_ms` for the first; an empty list means nothing yet, so call again. ' +
    '`dropped` counts events lost from the bounded queue. No image bytes.',
  inputSchema: z.strictObject({
    timeout_ms: z
      .number()
      .int()
      .nonnegative()
      .max(WAIT_MAX_MS)
      .default(WAIT_DEFAULT_MS)
      .describe(
        `How long to wait for the first event (default ${WAIT_DEFAULT_MS}, max ${WAIT_MAX_MS}; 0 = just drain).`,
      ),
  }),
  // The default wait must end (with an empty list) before the server's default tool limit does.
  timeoutMs: WAIT_DEFAULT_MS + 5_000,
  // Not read-only: each call drains the queue (an event is returned once), so a retry differs.
  annotations: {
    title: 'Wait for designer captures',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const started = performance.now();
    const { events, dropped } = await ctx.bridge.waitForCaptures({
      timeoutMs: args.timeout_ms,
      signal: ctx.signal,
    });
    return {
      events,
      dropped,
      timed_out: events.length === 0,
      waited_ms: Math.round(performance.now() - started),
    };
  },
});
