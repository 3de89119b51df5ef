import { StageImageParams, type StageImageResult } from '#shared/commands/stage-image.js';
import { invalidField, validationError } from '#shared/errors.js';
import { decodeStrictBase64, pngProblem } from '#shared/node/idea-store/index.js';
import type { HostHandler } from './types.js';

/**
 * `stage_image`: one PNG of a toolbar session, held until the save that names it `staged:<id>`.
 * The extension's own link only: agents send `base64:` or file paths in save_uiux_reference.
 */
export const stageImageHandler: HostHandler = async (params, ctx): Promise<StageImageResult> => {
  if (ctx.source !== 'extension') {
    throw invalidField(
      'command',
      "a command for agents (stage_image is the extension's own)",
      'stage_image',
      'input',
      { hint: 'Pass screenshots as base64: values or file paths in save_uiux_reference.' },
    );
  }
  const parsed = StageImageParams.safeParse(params);
  if (!parsed.success) throw validationError(parsed.error, 'stage_image params', params);
  const bytes = decodeStrictBase64(parsed.data.png_base64);
  const problem =
    bytes === null ? 'is not valid base64 (standard alphabet, padded, no spaces)' : pngProblem(bytes);
  if (bytes === null || problem !== null)
    throw invalidField(
      'png_base64',
      'a base64 PNG image',
      `${parsed.data.png_base64.slice(0, 24)}…`,
      'stage_image params',
      {
        hint: problem ?? undefined,
      },
    );
  ctx.images.put(parsed.data.image_id, bytes);
  return {
    image_id: parsed.data.image_id,
    bytes: bytes.length,
    width: bytes.readUInt32BE(16),
    height: bytes.readUInt32BE(20),
  };
};
