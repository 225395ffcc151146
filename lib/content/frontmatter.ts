import { z } from 'zod';

/** What every chapter's YAML frontmatter must hold; checked at build time and in tests. */
export const frontmatterSchema = z
  .object({
    title: z.string().min(3),
    summary: z.string().min(20).max(300),
    objectives: z.array(z.string().min(5)).min(2),
    prerequisites: z.array(z.string().min(2)).default([]),
    minutes: z.number().int().min(5).max(240),
    labs: z.array(z.string().regex(/^[a-z0-9-]+$/)).default([]),
  })
  .strict();

export type Frontmatter = z.infer<typeof frontmatterSchema>;
