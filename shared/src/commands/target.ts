import { z } from 'zod';

/** Which tab a command acts on. Empty: the active tab of the last focused window. */
export const TabTarget = z
  .object({
    tab_id: z.number().int().nonnegative().optional(),
    url_contains: z.string().min(1).max(2048).optional(),
  })
  .strict();
export type TabTarget = z.infer<typeof TabTarget>;

export const TabRef = z.object({
  id: z.number().int(),
  url: z.string(),
  title: z.string(),
});
export type TabRef = z.infer<typeof TabRef>;
