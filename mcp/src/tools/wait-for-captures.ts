import { z } from 'zod';
import { defineTool } from './define-tool.js';

export const WAIT_DEFAULT_MS = 30_000;
export const WAIT_MAX_MS = 120_000;

export const waitForCapturesTool = defineTool({
  name: 'wait_for_captures',
  description:
    'Wait for what the designer does in the X-IPE toolbar (open it with inject_toolbar): element_picked, ' +
    'area_picked, color_picked, note_added, session_saved, and deep_capture_saved (an area written by capture_area ' +
    'or by a toolbar Save with Deep capture on, with its file paths), verify_report_saved (a compare_with_reference ' +
    'report: scores and paths). Returns at once with everything not yet returned to ' +
    'you, else waits up to `timeout_ms` (default 30000, max 120000) for the first event; an empty list means ' +
    'nothing happened yet, so call again. Each event is returned once; events from before your first call are ' +
    'kept (bounded; `dropped` counts any lost). No image bytes: crops are saved with the session.',
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
