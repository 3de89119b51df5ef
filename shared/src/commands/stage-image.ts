import { z } from 'zod';

/**
 * Handled by the native host, for the extension only: one PNG of a toolbar session, sent on its
 * own before the save that names it (`staged:<image_id>` as the screenshot value), so no save
 * request carries megabytes of base64 and none is refused over the 10 MiB cap that agent-sent
 * JSON keeps. A nine-viewport full page at DPR 2 alone is ~12 MB of base64. Messages over the
 * extension→host cap (64 MiB) travel as `chunk` envelopes. The host keeps a staged image in memory
 * until the save takes it (or it expires); the session then holds the file path.
 */
export const STAGE_IMAGE = 'stage_image';

/** A screenshot value naming a staged image (resolved by the host for the extension's saves). */
export const STAGED_PREFIX = 'staged:';

export const StageImageParams = z
  .object({
    /** Chosen by the extension (a UUID), named by the save as `staged:<image_id>`. */
    image_id: z.uuid(),
    /** The PNG bytes, base64 (standard alphabet, padded). */
    png_base64: z.string().min(1),
  })
  .strict();
export type StageImageParams = z.infer<typeof StageImageParams>;

export const StageImageResult = z.object({
  image_id: z.string(),
  bytes: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type StageImageResult = z.infer<typeof StageImageResult>;
