import { SAVE_REFERENCE } from '#shared/commands/save-reference.js';
import { XipeError } from '#shared/errors.js';
import { neverDelivered } from '#shared/node/bridge/link-lost.js';
import { payloadLimit } from '#shared/node/config.js';
import { xipeHome } from '#shared/node/paths.js';
import { jsonByteLength, ReferenceData } from '#shared/reference-data.js';
import type { BridgeClient } from '../bridge-client/bridge.js';
import { defineTool } from './define-tool.js';

/** Saves can wait for the idea lock behind other saves; give them more than a plain command. */
const SAVE_TIMEOUT_MS = 60_000;

export const saveUiuxReferenceTool = defineTool({
  name: 'save_uiux_reference',
  description:
    'Save UI/UX reference data as a new session in x-ipe-docs/ideas/{idea_folder}/uiux-references/ (works with ' +
    'the browser closed). Give version ("1.0"; "2.0": colours with a role; "3.0": also areas[], static_resources[]), ' +
    'source_url, timestamp (ISO 8601), an existing idea_folder, and at least one non-empty colors[], elements[] or ' +
    'design_tokens{}. 3.0 areas and elements with html_css or an instruction also land in ' +
    'page-element-references/referenced-elements.json. Null = absent; unknown keys are kept. Prefer screenshot file ' +
    'paths (from capture_screenshot) to `base64:<PNG>` values. Returns every path written.',
  inputSchema: ReferenceData,
  // Sessions are append-only (never overwritten), each call adds one; only local files are touched.
  annotations: {
    title: 'Save UI/UX reference data',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  // The server's outer limit must leave the save its own wait for the idea lock.
  timeoutMs: SAVE_TIMEOUT_MS + 5_000,
  async handler(data, ctx) {
    const params = { workspace: ctx.workspace, data };
    const limit = payloadLimit(xipeHome());
    const bytes = jsonByteLength(params);
    if (bytes > limit) {
      throw new XipeError(
        'PAYLOAD_TOO_LARGE',
        `The reference data is ${bytes} bytes as JSON, over the ${limit}-byte limit; nothing was sent. Pass ` +
          'screenshot file paths instead of base64, save fewer elements per call, or raise max_payload_bytes in ' +
          `${xipeHome()}/config.json.`,
        { bytes, max_bytes: limit },
      );
    }
    try {
      // The bridge client already retries once after a connection error (a host restarting).
      return await send(ctx.bridge, params, ctx.signal);
    } catch (err) {
      // No host can have received it (a host may have saved it otherwise: saving again would duplicate).
      if (!neverDelivered(err) || ctx.signal.aborted) throw err;
      // Writing files needs nothing of the browser: save through the same store, rules and idea
      // lock as a host would, so a host starting at this moment is serialised with us.
      ctx.logger.info('no host reachable: saving through the local idea store', {
        idea_folder: data.idea_folder,
      });
      const { saveReference } = await import('#shared/node/idea-store/index.js');
      return await saveReference({
        workspace: ctx.workspace,
        data,
        maxPayloadBytes: limit,
        lockTimeoutMs: SAVE_TIMEOUT_MS,
        logger: ctx.logger,
      });
    }
  },
});

/**
 * Any host can save (they share the file system and the idea lock), so when several browsers are
 * connected the first one is used instead of asking the agent to choose.
 */
async function send(
  bridge: BridgeClient,
  params: { workspace: string; data: ReferenceData },
  signal: AbortSignal,
) {
  try {
    return await bridge.request(SAVE_REFERENCE, params, { timeoutMs: SAVE_TIMEOUT_MS, signal });
  } catch (err) {
    const browsers = err instanceof XipeError ? err.details?.connected_browsers : undefined;
    const [first] = Array.isArray(browsers) ? browsers : [];
    if (err instanceof XipeError && err.details?.field === 'browser' && typeof first === 'string') {
      return await bridge.request(SAVE_REFERENCE, params, {
        browser: first,
        timeoutMs: SAVE_TIMEOUT_MS,
        signal,
      });
    }
    throw err;
  }
}
