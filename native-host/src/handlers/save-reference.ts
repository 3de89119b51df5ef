import { SaveReferenceParams, type SaveReferenceResult } from '#shared/commands/save-reference.js';
import { validationError } from '#shared/errors.js';
import { maxPayloadBytes } from '#shared/node/config.js';
import { checkPayloadSize, resolveWorkspace, saveReference } from '#shared/node/idea-store/index.js';
import type { HostHandler } from './types.js';
import { caller } from './workspace.js';

/**
 * `save_reference`: the one way reference data reaches an idea folder, from an MCP server or the
 * toolbar. The size cap is checked on the request as received, before anything is parsed.
 */
export const saveReferenceHandler: HostHandler = async (params, ctx): Promise<SaveReferenceResult> => {
  const maxBytes = maxPayloadBytes(ctx.config, ctx.env);
  checkPayloadSize(ctx.payloadBytes, maxBytes);
  const parsed = SaveReferenceParams.safeParse(params);
  if (!parsed.success) throw validationError(parsed.error, 'reference data', params);
  const workspace = resolveWorkspace({ ...caller(ctx), requested: parsed.data.workspace });
  const result = await saveReference({
    workspace,
    data: parsed.data.data,
    maxPayloadBytes: maxBytes,
    payloadBytes: ctx.payloadBytes,
    logger: ctx.logger,
    // The toolbar sends its images on their own first (stage_image) and names them here.
    ...(ctx.source === 'extension' ? { staged: (id: string) => ctx.images.take(id) } : {}),
  });
  ctx.logger.info('reference saved', {
    workspace,
    idea_folder: result.idea_folder,
    session: result.session_file,
    screenshots: result.screenshots.length,
    source: ctx.source,
  });
  return result;
};
